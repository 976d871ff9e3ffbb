import Agent

extension TimelineWAVWriter {
    /// A concealment source for ``write(_:atSample:conceal:)`` backed by the participant's Opus
    /// decoder: libopus extrapolates from the audio it decoded last (RFC 6716 §4.4), which sounds
    /// far better than a hole for a lost packet or two.
    ///
    /// libopus conceals in steps of 2.5 ms (120 samples) up to 120 ms, so the request is rounded
    /// up to a whole step and the writer cuts the excess; gaps past 120 ms get 120 ms of
    /// concealment and silence after it (the writer's ``maxConcealedGap`` normally keeps those to
    /// silence anyway). A decoder error yields nil: the gap becomes silence.
    public static func opusConcealment(_ decoder: OpusDecoder) -> (Int) -> [Int16]? {
        { samples in
            guard samples > 0 else { return nil }
            let step = 120
            let rounded = min((samples + step - 1) / step * step, OpusDecoder.maxFrameSamplesPerChannel)
            return try? decoder.conceal(samplesPerChannel: rounded)
        }
    }
}
