/// How long one fixed block of PCM lasts: the two frame lengths real-time audio code works in
/// (WebRTC's audio processing runs on 10 ms, Opus over WebRTC sends 20 ms).
public enum AudioFrameDuration: Int, Sendable, Equatable, CaseIterable {
    case milliseconds10 = 10
    case milliseconds20 = 20

    public var duration: Duration { .milliseconds(rawValue) }

    /// Samples per channel at `sampleRate` (whole for every rate that is a multiple of 100 Hz).
    public func samplesPerChannel(atRate sampleRate: Int) -> Int { sampleRate * rawValue / 1000 }
}
