/// Something that changes PCM on its way through a track, frame by frame and in place: noise
/// suppression, gain control, a limiter, or a user's own filter. The idea of the SRTC SDK's
/// audioCaptureProcessor (on local audio before it is encoded) and audioRenderProcessor (on
/// remote audio after it is decoded, before sinks see it).
///
/// A processor is made for one ``AudioProcessingFormat`` and is then handed frames of exactly
/// that shape, in order, one call at a time. It may keep state from frame to frame (filters,
/// noise estimates, gains), which is why the protocol does not ask for `Sendable`: a processor
/// belongs to one track, which keeps it behind its lock and calls it on the track's own thread
/// (the encode lane for an `AudioTrack`, the track's worker lane for a remote sink). To give the
/// same processing to many tracks, hand out an ``AudioProcessorFactory``, which makes one
/// processor per track; its `@Sendable` closure cannot capture a processor to share.
///
/// Processors run on the media path: a call must be quick (well under a frame's duration) and
/// must not block. Chain several with ``AudioProcessorChain``.
public protocol AudioProcessor {
    /// The frames this processor takes.
    var format: AudioProcessingFormat { get }

    /// Processes one frame of interleaved samples in place.
    /// - Throws: ``AudioProcessorError/frameLength(expected:got:)`` when `samples` is not one
    ///   frame of ``format``, leaving them as they were. A track counts the failure and sends
    ///   the frame unprocessed.
    mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError)
}

extension AudioProcessor {
    /// Throws unless `samples` is exactly one frame of ``format``; for implementations to call first.
    public func checkFrameLength(of samples: [Int16]) throws(AudioProcessorError) {
        guard samples.count == format.samplesPerFrame else {
            throw .frameLength(expected: format.samplesPerFrame, got: samples.count)
        }
    }
}
