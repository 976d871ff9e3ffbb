import Agent
import Foundation

/// The samples' audio: a 440 Hz sine, optionally with the ``SyncMark`` beeps, encoded by our own
/// ``OpusEncoder`` in 20 ms mono packets.
///
/// The signal is a function of the absolute sample index, so the tone's phase runs on across
/// packet boundaries. Enough packets are encoded that the decoded audio, after the encoder's
/// lookahead is skipped (the Opus pre-skip), still covers the whole duration.
struct ToneAudio {
    static let sampleRate = OpusEncoder.sampleRate
    static let samplesPerPacket = 960
    static let toneFrequency = 440.0

    let packets: [[UInt8]]
    /// The encoder's lookahead in samples: the pre-skip a player drops (312 at 48 kHz).
    let preSkip: Int

    /// Encodes `seconds` of the tone at `amplitude` (0...1), with the sync beeps when `withSyncMarks`.
    static func encode(seconds: Int, amplitude: Double, withSyncMarks: Bool) throws(OpusError) -> ToneAudio {
        let encoder = try OpusEncoder(configuration: .init(
            channels: 1, application: .audio, bitrate: 64_000, complexity: 10))
        let preSkip = encoder.lookahead
        let total = seconds * sampleRate + preSkip
        let packetCount = (total + samplesPerPacket - 1) / samplesPerPacket
        var packets: [[UInt8]] = []
        packets.reserveCapacity(packetCount)
        var pcm = [Int16](repeating: 0, count: samplesPerPacket)
        for packet in 0..<packetCount {
            for offset in 0..<samplesPerPacket {
                pcm[offset] = sample(packet * samplesPerPacket + offset, amplitude: amplitude, withSyncMarks: withSyncMarks)
            }
            packets.append(try encoder.encode(pcm))
        }
        return ToneAudio(packets: packets, preSkip: preSkip)
    }

    /// Sample `index` of the signal, as 16-bit PCM.
    static func sample(_ index: Int, amplitude: Double, withSyncMarks: Bool) -> Int16 {
        let value: Double
        if withSyncMarks, let beep = SyncMark.beepOffset(sampleIndex: index, sampleRate: sampleRate) {
            value = SyncMark.beepAmplitude * sine(SyncMark.beepFrequency, beep)
        } else {
            value = amplitude * sine(toneFrequency, index)
        }
        return Int16((value * Double(Int16.max)).rounded())
    }

    /// Milliseconds from the start at which packet `index` begins.
    static func milliseconds(ofPacket index: Int) -> Int64 {
        Int64(index * samplesPerPacket * 1000 / sampleRate)
    }

    private static func sine(_ frequency: Double, _ index: Int) -> Double {
        // The phase is reduced to one period first, so it stays exact however long the signal runs.
        let period = Double(sampleRate) / frequency
        let phase = Double(index).truncatingRemainder(dividingBy: period) / period
        return sin(2 * Double.pi * phase)
    }
}
