/// The audio every ``SpeechRecognizer`` takes: 16 kHz mono signed 16-bit PCM, the rate the
/// pocketsphinx and Whisper models are trained on. A remote track's sink delivers it directly
/// (`RemoteAudioFormat(sampleRate: 16_000)`); anything else goes through `AudioResampler` first.
public enum SpeechAudio {
    public static let sampleRate = 16_000
    /// Samples in one millisecond.
    public static let samplesPerMillisecond = sampleRate / 1000

    /// The time of sample `index` (from the first sample fed), in milliseconds.
    public static func milliseconds(ofSample index: Int64) -> Int64 {
        index / Int64(samplesPerMillisecond)
    }
}
