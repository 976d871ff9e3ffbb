import TestSupport
import Testing

@testable import Agent
@testable import AgentMedia

@Suite(.offThePool) struct VPXCodecTests {
    /// 90 kHz RTP clock ticks per frame at 30 fps.
    static let ticksPerFrame: Int64 = 3000

    private struct Decoded {
        var encoded: [VPXEncodedFrame] = []
        var pictures: [I420Frame] = []
        var originals: [I420Frame] = []
    }

    /// Encodes `count` frames of the moving test pattern and decodes them as they come out.
    private func run(_ encoder: VPXEncoder, _ decoder: VPXDecoder, width: Int, height: Int,
                     frames: Range<Int>, forceKeyframeAt: Set<Int> = []) throws -> Decoded {
        var result = Decoded()
        for index in frames {
            if forceKeyframeAt.contains(index) { encoder.forceKeyframe() }
            let original = try I420Frame.testPattern(width: width, height: height, frameIndex: index)
            let encoded = try encoder.encode(original, pts: Int64(index) * Self.ticksPerFrame)
            #expect(encoded.count == 1, "frame \(index) produced \(encoded.count) packets")
            for frame in encoded {
                result.encoded.append(frame)
                let pictures = try decoder.decode(frame.data)
                #expect(pictures.count == 1)
                result.pictures.append(contentsOf: pictures)
                result.originals.append(original)
            }
        }
        return result
    }

    @Test func vp8RoundTripKeepsAMovingPatternAbove30dB() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 1_500_000))
        let decoder = try VPXDecoder(codec: .vp8)
        let run = try run(encoder, decoder, width: 640, height: 480, frames: 0..<30)

        #expect(run.pictures.count == 30)
        #expect(run.encoded.first?.isKeyframe == true)
        #expect(run.encoded.dropFirst().filter(\.isKeyframe).isEmpty)
        #expect(run.encoded.map(\.pts) == (0..<30).map { Int64($0) * Self.ticksPerFrame })
        let scores = zip(run.pictures, run.originals).map { $0.psnr(against: $1) ?? 0 }
        let bytes = run.encoded.reduce(0) { $0 + $1.data.count }
        print("vp8 640x480 @1.5 Mbps: PSNR min \(scores.min() ?? 0) dB, mean \(scores.reduce(0, +) / Double(scores.count)) dB, \(bytes * 8 / 1000) kbit in 1 s")
        #expect(run.pictures.allSatisfy { $0.width == 640 && $0.height == 480 })
        #expect(scores.allSatisfy { $0 > 30 })
        // Each picture matches its own input, not a neighbour: the pattern moves, so a decoder
        // that repeated stale pictures would score far lower against the right frame.
        let stale = run.pictures[20].psnr(against: run.originals[15]) ?? 0
        #expect(stale < scores[20] - 10)
        // Compression happened: well under 1% of raw I420 for inter frames.
        #expect(run.encoded[10].data.count < 640 * 480 * 3 / 2 / 20)
    }

    @Test func forceKeyframeMakesTheNextFrameAKeyframe() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 800_000))
        let decoder = try VPXDecoder()
        let run = try run(encoder, decoder, width: 320, height: 240, frames: 0..<12, forceKeyframeAt: [6])
        let keyframes = run.encoded.enumerated().filter { $0.element.isKeyframe }.map(\.offset)
        #expect(keyframes == [0, 6])
        // A keyframe decodes on its own, without the frames before it.
        let fresh = try VPXDecoder()
        let picture = try #require(try fresh.decode(run.encoded[6].data).first)
        #expect((picture.psnr(against: run.originals[6]) ?? 0) > 30)
    }

    @Test func sizeChangeMidStreamReconfiguresTheEncoder() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 1_200_000))
        let decoder = try VPXDecoder()
        let large = try run(encoder, decoder, width: 640, height: 480, frames: 0..<8)
        let small = try run(encoder, decoder, width: 320, height: 240, frames: 8..<16)
        #expect(large.pictures.allSatisfy { $0.width == 640 && $0.height == 480 })
        #expect(small.pictures.count == 8)
        #expect(small.pictures.allSatisfy { $0.width == 320 && $0.height == 240 })
        #expect(small.encoded.first?.isKeyframe == true)
        #expect(small.encoded.allSatisfy { $0.width == 320 && $0.height == 240 })
        let scores = zip(small.pictures, small.originals).map { $0.psnr(against: $1) ?? 0 }
        print("vp8 after 640x480 -> 320x240: PSNR min \(scores.min() ?? 0) dB")
        #expect(scores.allSatisfy { $0 > 30 })
        // And back up, larger than the encoder's current size.
        let again = try run(encoder, decoder, width: 640, height: 480, frames: 16..<18)
        #expect(again.pictures.allSatisfy { $0.width == 640 && $0.height == 480 })
        #expect(zip(again.pictures, again.originals).allSatisfy { ($0.psnr(against: $1) ?? 0) > 30 })
    }

    @Test func oddSizesRoundTrip() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 500_000))
        let decoder = try VPXDecoder()
        let run = try run(encoder, decoder, width: 161, height: 97, frames: 0..<5)
        #expect(run.pictures.allSatisfy { $0.width == 161 && $0.height == 97 && $0.chromaWidth == 81 })
        #expect(zip(run.pictures, run.originals).allSatisfy { ($0.psnr(against: $1) ?? 0) > 30 })
    }

    @Test func vp9RoundTrip() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp9, bitrate: 800_000))
        let decoder = try VPXDecoder(codec: .vp9)
        let run = try run(encoder, decoder, width: 320, height: 240, frames: 0..<10, forceKeyframeAt: [5])
        #expect(run.encoded.map(\.isKeyframe) == [true, false, false, false, false, true, false, false, false, false])
        let scores = zip(run.pictures, run.originals).map { $0.psnr(against: $1) ?? 0 }
        print("vp9 320x240 @800 kbps: PSNR min \(scores.min() ?? 0) dB")
        #expect(scores.allSatisfy { $0 > 30 })
    }

    @Test func garbageInputGivesTypedErrors() throws {
        let decoder = try VPXDecoder()
        #expect(throws: VPXError.invalidArgument("empty frame")) { try decoder.decode([]) }
        do {
            _ = try decoder.decode([UInt8](repeating: 0xA5, count: 64))
            Issue.record("garbage decoded")
        } catch {
            guard case .library(let operation, let code, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(operation == "vpx_codec_decode")
            #expect(code != 0)
        }
        // A keyframe cut short is refused, not read past its end.
        let encoder = try VPXEncoder()
        let keyframe = try #require(try encoder.encode(I420Frame.testPattern(width: 64, height: 64, frameIndex: 0), pts: 0).first)
        #expect(throws: VPXError.self) { try VPXDecoder().decode(Array(keyframe.data.prefix(12))) }
        // Random bytes never trap.
        for _ in 0..<100 {
            let garbage = (0..<Int.random(in: 1...200)).map { _ in UInt8.random(in: 0...255) }
            _ = try? decoder.decode(garbage)
        }
        #expect(throws: VPXError.self) { try VPXEncoder(configuration: .init(framesPerSecond: 0)) }

        // A frame whose plane was shrunk after creation is refused before libvpx reads it.
        var shrunk = try I420Frame.testPattern(width: 64, height: 64, frameIndex: 0)
        shrunk.v.removeLast(10)
        #expect(throws: VPXError.self) { try encoder.encode(shrunk, pts: 3000) }
    }

    @Test func loweringTheBitrateShrinksFrames() throws {
        let encoder = try VPXEncoder(configuration: .init(codec: .vp8, bitrate: 2_000_000))
        let decoder = try VPXDecoder()
        let high = try run(encoder, decoder, width: 640, height: 480, frames: 0..<30)
        try encoder.setBitrate(150_000)
        #expect(encoder.configuration.bitrate == 150_000)
        let low = try run(encoder, decoder, width: 640, height: 480, frames: 30..<60)
        let highBytes = high.encoded.suffix(10).reduce(0) { $0 + $1.data.count }
        let lowBytes = low.encoded.suffix(10).reduce(0) { $0 + $1.data.count }
        print("vp8 last 10 frames: \(highBytes) bytes at 2 Mbps, \(lowBytes) bytes at 150 kbps")
        #expect(lowBytes * 3 < highBytes)
        #expect(low.encoded.allSatisfy { !$0.isKeyframe })
    }
}
