import Foundation

/// Power of one frequency in a block of 48 kHz samples (the Goertzel algorithm).
public func goertzelPower<C: Collection>(_ samples: C, frequency: Double, sampleRate: Double = 48_000) -> Double where C.Element == Int16 {
    let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
    var previous = 0.0
    var beforePrevious = 0.0
    for sample in samples {
        let current = Double(sample) + coefficient * previous - beforePrevious
        beforePrevious = previous
        previous = current
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
}
