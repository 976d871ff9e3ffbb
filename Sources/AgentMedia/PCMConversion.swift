/// Conversions between 16-bit and floating-point PCM, the two sample formats the media code speaks.
///
/// Float PCM is full scale at -1 ... 1, as libopus, libsndfile and libsamplerate read it: an Int16
/// sample `s` is `s / 32768`. Going back rounds to the nearest step and clamps, so a float signal
/// that overshoots clips instead of wrapping around, and NaN (which no Int16 can hold) becomes 0.
public enum PCMConversion {
    public static let int16Scale: Float = 32_768

    /// `samples` as floats in -1 ..< 1.
    public static func floats(fromInt16 samples: [Int16]) -> [Float] {
        samples.map { Float($0) / int16Scale }
    }

    /// `samples` as Int16, rounded and clamped to -32768 ... 32767.
    public static func int16s(fromFloats samples: [Float]) -> [Int16] {
        samples.map(int16)
    }

    /// One float sample as Int16, rounded and clamped; NaN is 0.
    @inlinable
    public static func int16(_ sample: Float) -> Int16 {
        guard !sample.isNaN else { return 0 }
        return Int16(max(-32_768, min(32_767, (sample * int16Scale).rounded())))
    }

    /// One float sample clamped to -1 ... 1; NaN is 0. Keeps hostile or sloppy input from
    /// reaching an encoder as something it never expects.
    @inlinable
    public static func clamped(_ sample: Float) -> Float {
        guard !sample.isNaN else { return 0 }
        return max(-1, min(1, sample))
    }
}
