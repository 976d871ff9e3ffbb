import TestSupport
import Testing

@testable import Agent
@testable import AgentMedia

@Suite(.offThePool) struct OpusCodecTests {
    static let frame20ms = 960

    /// Encodes `pcm` frame by frame and decodes every packet, returning the decoded stream.
    private func roundTrip(_ pcm: [Int16], channels: Int, frameSize: Int,
                           encoder: OpusEncoder) throws -> (decoded: [Int16], packetBytes: Int) {
        let decoder = try OpusDecoder(channels: channels)
        var packet: [UInt8] = []
        var decoded: [Int16] = []
        var frame: [Int16] = []
        var bytes = 0
        let step = frameSize * channels
        for start in stride(from: 0, to: pcm.count - step + 1, by: step) {
            try encoder.encode(Array(pcm[start..<(start + step)]), into: &packet)
            bytes += packet.count
            try decoder.decode(packet, into: &frame)
            #expect(frame.count == step)
            decoded.append(contentsOf: frame)
        }
        return (decoded, bytes)
    }

    @Test func toneSurvivesRoundTripAt64kbps() throws {
        // 0.25 s of noise (to measure the delay), then the tone (to measure quality).
        let tone = SignalMetrics.withNoiseBurst(SignalMetrics.tone(seconds: 3), seconds: 0.25)
        let encoder = try OpusEncoder(configuration: .init(channels: 1, application: .audio, bitrate: 64_000))
        let (decoded, bytes) = try roundTrip(tone, channels: 1, frameSize: Self.frame20ms, encoder: encoder)
        #expect(decoded.count == tone.count)

        let lag = SignalMetrics.bestLag(reference: tone, output: decoded, start: 0, window: 10_000, maxLag: 1_200)
        let snr = SignalMetrics.snr(reference: tone, output: decoded, lag: lag, start: 24_000, window: 96_000)
        print("opus mono 64 kbps: lag \(lag) (lookahead \(encoder.lookahead)), SNR \(snr) dB, \(bytes * 8 / 3) bit/s")
        // The decoder's output trails the input by exactly the encoder's lookahead.
        #expect(abs(lag - encoder.lookahead) <= 2)
        #expect(snr > 15)
        // Rate control is real: roughly the requested bitrate, not raw PCM.
        #expect((40_000...90_000).contains(bytes * 8 / 3))

        // Control: silence in place of the decoded tone scores about 0 dB and fails the threshold.
        let silent = [Int16](repeating: 0, count: decoded.count)
        #expect(SignalMetrics.snr(reference: tone, output: silent, lag: lag, start: 24_000, window: 96_000) < 1)
    }

    @Test func stereoChannelsStaySeparate() throws {
        let left = SignalMetrics.tone(frequency: 440, seconds: 2)
        let right = SignalMetrics.tone(frequency: 660, seconds: 2, amplitude: 8_000)
        let pcm = SignalMetrics.interleave(left, right)
        let encoder = try OpusEncoder(configuration: .init(channels: 2, application: .audio, bitrate: 96_000))
        let (decoded, _) = try roundTrip(pcm, channels: 2, frameSize: Self.frame20ms, encoder: encoder)
        let decodedLeft = SignalMetrics.channel(decoded, 0, of: 2)
        let decodedRight = SignalMetrics.channel(decoded, 1, of: 2)
        let lag = encoder.lookahead
        let leftSNR = SignalMetrics.snr(reference: left, output: decodedLeft, lag: lag, start: 12_000, window: 48_000)
        let rightSNR = SignalMetrics.snr(reference: right, output: decodedRight, lag: lag, start: 12_000, window: 48_000)
        let swappedSNR = SignalMetrics.snr(reference: left, output: decodedRight, lag: lag, start: 12_000, window: 48_000)
        print("opus stereo 96 kbps: SNR left \(leftSNR) dB, right \(rightSNR) dB, swapped \(swappedSNR) dB")
        #expect(leftSNR > 15)
        #expect(rightSNR > 15)
        #expect(swappedSNR < 3)
    }

    @Test func floatPathRoundTrips() throws {
        let tone = SignalMetrics.tone(seconds: 1)
        let encoder = try OpusEncoder(configuration: .init(channels: 1, application: .audio, bitrate: 64_000))
        let decoder = try OpusDecoder(channels: 1)
        var packet: [UInt8] = []
        var decoded: [Int16] = []
        for start in stride(from: 0, to: tone.count, by: Self.frame20ms) {
            let frame = tone[start..<(start + Self.frame20ms)].map { Float($0) / 32768 }
            try encoder.encode(frame, into: &packet)
            let output = try decoder.decodeFloat(packet)
            #expect(output.count == Self.frame20ms)
            decoded.append(contentsOf: output.map { Int16(max(-32768, min(32767, $0 * 32768))) })
        }
        let snr = SignalMetrics.snr(reference: tone, output: decoded, lag: encoder.lookahead, start: 9_600, window: 28_800)
        print("opus float path: SNR \(snr) dB")
        #expect(snr > 15)
    }

    @Test(arguments: [480, 960, 1920, 2880])
    func everyWebRTCFrameDurationDecodesToItsLength(frameSize: Int) throws {
        let tone = SignalMetrics.tone(seconds: 0.5)
        let encoder = try OpusEncoder(configuration: .init(bitrate: 48_000))
        let decoder = try OpusDecoder()
        let packet = try encoder.encode(Array(tone[0..<frameSize]))
        #expect(try OpusDecoder.samplesPerChannel(in: packet) == frameSize)
        #expect(try decoder.decode(packet).count == frameSize)
        #expect(decoder.lastPacketDuration == frameSize)
    }

    @Test func concealmentFillsTheRequestedDuration() throws {
        let tone = SignalMetrics.tone(seconds: 0.5)
        let encoder = try OpusEncoder(configuration: .init(bitrate: 32_000))
        let decoder = try OpusDecoder()
        for start in stride(from: 0, to: 9_600, by: Self.frame20ms) {
            _ = try decoder.decode(try encoder.encode(Array(tone[start..<(start + Self.frame20ms)])))
        }
        let concealed = try decoder.conceal(samplesPerChannel: 960)
        #expect(concealed.count == 960)
        // PLC continues the tone rather than emitting silence.
        #expect(SignalMetrics.rms(concealed) > 500)
        #expect(try decoder.decode(nil, lostSamplesPerChannel: 480).count == 480)
        #expect(try decoder.conceal(samplesPerChannel: 2880).count == 2880)

        let stereo = try OpusDecoder(channels: 2)
        #expect(try stereo.conceal(samplesPerChannel: 480).count == 960)

        #expect(throws: OpusError.self) { try decoder.conceal(samplesPerChannel: 100) }
        #expect(throws: OpusError.self) { try decoder.conceal(samplesPerChannel: 0) }
    }

    @Test func inbandFECRecoversALostFrame() throws {
        let tone = SignalMetrics.tone(seconds: 1)
        let configuration = OpusEncoder.Configuration(channels: 1, application: .voip, bitrate: 32_000,
                                                      inbandFEC: true, expectedPacketLossPercent: 20)
        let encoder = try OpusEncoder(configuration: configuration)
        let packets = try stride(from: 0, to: tone.count, by: Self.frame20ms).map {
            try encoder.encode(Array(tone[$0..<($0 + Self.frame20ms)]))
        }
        let decoder = try OpusDecoder()
        for packet in packets[0..<25] { _ = try decoder.decode(packet) }
        // Packet 25 is lost; packet 26 carries its FEC copy.
        let recovered = try decoder.decodeFEC(packets[26], samplesPerChannel: 960)
        #expect(recovered.count == 960)
        let lostStart = 25 * Self.frame20ms - encoder.lookahead
        let original = Array(tone[lostStart..<(lostStart + 960)])
        let snr = SignalMetrics.snr(reference: original, output: recovered, lag: 0, start: 0, window: 960)
        // Control: a decoder with the same history that only conceals the gap.
        let concealing = try OpusDecoder()
        for packet in packets[0..<25] { _ = try concealing.decode(packet) }
        let concealed = try concealing.conceal(samplesPerChannel: 960)
        let concealedSNR = SignalMetrics.snr(reference: original, output: concealed, lag: 0, start: 0, window: 960)
        print("opus FEC recovery: SNR \(snr) dB (concealment alone: \(concealedSNR) dB)")
        #expect(snr > 6)
        #expect(snr > concealedSNR + 3)
        #expect(try decoder.decode(packets[26]).count == 960)
    }

    @Test func badInputGivesTypedErrors() throws {
        let decoder = try OpusDecoder()
        // TOC 0xFF: code 3 (counted frames); count byte 0xFF asks for 63 x 20 ms > 120 ms.
        #expect(throws: OpusError.library(operation: "opus_decode", code: -4,
                                          message: "corrupted stream")) {
            try decoder.decode([0xFF, 0xFF, 0x01, 0x02])
        }
        #expect(throws: OpusError.self) { try decoder.decode([]) }
        #expect((try? decoder.decode([])) == nil)
        // Random bytes never trap; each either decodes or throws an OpusError.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let garbage = (0..<Int.random(in: 1...60, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            do { _ = try decoder.decode(garbage) } catch { #expect(error.code < 0) }
        }

        let encoder = try OpusEncoder()
        #expect(throws: OpusError.self) { try encoder.encode([Int16](repeating: 0, count: 100)) }
        #expect((try? encoder.encode([Int16](repeating: 0, count: 100))) == nil)
        do {
            try encoder.setBitrate(-5)
            Issue.record("a negative bitrate was accepted")
        } catch {
            #expect(error.code == -1)  // OPUS_BAD_ARG
        }
        #expect(throws: OpusError.invalidArgument("channels must be 1 or 2, got 3")) {
            try OpusEncoder(configuration: .init(channels: 3))
        }
        #expect(throws: OpusError.self) { try OpusDecoder(channels: 0) }
    }

    @Test func dtxShrinksSilence() throws {
        let silence = [Int16](repeating: 0, count: Self.frame20ms)
        let withDTX = try OpusEncoder(configuration: .init(discontinuousTransmission: true))
        let withoutDTX = try OpusEncoder(configuration: .init(discontinuousTransmission: false))
        var sizes: [Int] = []
        for _ in 0..<50 {
            sizes.append(try withDTX.encode(silence).count)
            #expect(try withoutDTX.encode(silence).count > 2)
        }
        // After about 200 ms of silence DTX sends 1-byte packets, refreshing comfort noise with a
        // normal packet every 400 ms.
        let skippable = sizes.suffix(40).filter { $0 <= 2 }.count
        print("opus DTX packet sizes: \(sizes)")
        #expect(skippable >= 36)
    }
}
