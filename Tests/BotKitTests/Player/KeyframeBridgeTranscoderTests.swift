import Agent
import Foundation
import TestSupport
import Testing

@testable import BotKit

/// A keyframe made for a receiver that asks mid-way between a file's keyframes: what it then
/// gets (our keyframe, our frames, the file's next keyframe and the stored frames after it)
/// decodes from our keyframe on, without errors, and shows the file's pictures.
@Suite struct KeyframeBridgeTranscoderTests {
    static let (width, height) = (160, 120)

    /// 40 stored frames of a moving pattern, a keyframe every 30 (frames 0 and 30).
    static func storedFrames(_ codec: MediaCodec = .vp8) throws -> [EncodedMediaFrame] {
        let encoder = try VideoEncoder(codec: codec, bitrate: 300_000, keyframeInterval: 30)
        var frames: [EncodedMediaFrame] = []
        for index in 0..<40 {
            let picture = try I420Frame.testPattern(width: width, height: height, frameIndex: index)
            for encoded in try encoder.encode(picture, index: Int64(index)) {
                frames.append(EncodedMediaFrame(bytes: encoded.bytes, timestampNanoseconds: Int64(index) * 33_333_333,
                                                isKeyframe: encoded.isKeyframe, codec: codec))
            }
        }
        return frames
    }

    @Test(arguments: [MediaCodec.vp8, .h264])
    func aRequestAfterFrameTenGivesOurKeyframeThenOurFramesUntilTheStoredKeyframe(_ codec: MediaCodec) throws {
        let stored = try Self.storedFrames(codec)
        try #require(stored.count == 40 && stored[0].isKeyframe && stored[30].isKeyframe && !stored[10].isKeyframe)
        let bridge = KeyframeBridgeTranscoder()
        #expect(bridge.start(after: Array(stored[0...10])))
        #expect(bridge.mode == .bridging)
        var sent: [EncodedMediaFrame] = []
        var storedSent = 0
        for frame in stored[11...] {
            switch bridge.process(frame) {
            case .stored:
                sent.append(frame)
                storedSent += 1
            case .bridged(let ours): sent += ours
            }
        }
        #expect(bridge.mode == .passing && bridge.failure == nil)
        #expect(bridge.framesEncoded == 19, "frames 11 to 29 are ours")
        #expect(storedSent == 10, "frames 30 to 39 as stored")
        #expect(sent.first?.isKeyframe == true, "ours starts with a keyframe")
        #expect(sent.dropFirst().prefix(18).allSatisfy { !$0.isKeyframe })
        #expect(sent.first?.timestampNanoseconds == stored[11].timestampNanoseconds, "stored RTP times are kept")

        // A receiver that starts at our keyframe decodes everything and sees the file's pictures.
        let receiver = try VideoDecoder(codec: codec)
        let reference = try VideoDecoder(codec: codec)
        var referencePictures: [I420Frame] = []
        for frame in stored { referencePictures += try reference.decode(frame.bytes) }
        var worst = 0.0
        for (index, frame) in sent.enumerated() {
            let pictures = try receiver.decode(frame.bytes)
            try #require(pictures.count == 1)
            worst = max(worst, pictures[0].meanLumaDifference(from: referencePictures[11 + index]))
        }
        print("KeyframeBridgeTranscoder: \(codec.name): worst mean luma difference from the file's pictures \(String(format: "%.2f", worst))")
        #expect(worst < 8, "the bridged pictures are the file's, re-encoded")
    }

    @Test func nothingToBridgeFromIsRefusedAndPassesFramesAsStored() throws {
        let stored = try Self.storedFrames()
        let bridge = KeyframeBridgeTranscoder()
        #expect(!bridge.start(after: []), "no video sent yet")
        #expect(!bridge.start(after: Array(stored[1...5])), "no stored keyframe to start from")
        let opus = EncodedMediaFrame(bytes: [0xFC, 0xFF, 0xFE], timestampNanoseconds: 0, isKeyframe: true, codec: .opus)
        #expect(!bridge.start(after: [opus]), "not libvpx's")
        #expect(!bridge.start(after: Array(repeating: stored[0], count: KeyframeBridgeTranscoder.maxCatchUpFrames + 1)))
        guard case .stored = bridge.process(stored[3]) else {
            Issue.record("a bridge that never started passes frames as stored")
            return
        }
        #expect(bridge.mode == .passing)
    }

    @Test func aCorruptStoredFrameEndsTheBridgeWithTheReason() throws {
        let stored = try Self.storedFrames()
        let bridge = KeyframeBridgeTranscoder()
        #expect(bridge.start(after: Array(stored[0...4])))
        var corrupt = stored[5]
        corrupt.bytes = [0x00, 0x01, 0x02, 0x03]
        guard case .stored = bridge.process(corrupt) else {
            Issue.record("a frame the decoder refuses goes out as stored")
            return
        }
        #expect(bridge.mode == .passing)
        #expect(bridge.failure != nil)
    }

    @Test func theBitrateComesFromTheStoredFramesBytesOverTheirSpan() {
        func frame(_ bytes: Int, atMs ms: Int64) -> EncodedMediaFrame {
            EncodedMediaFrame(bytes: Array(repeating: 0, count: bytes), timestampNanoseconds: ms * 1_000_000, isKeyframe: false, codec: .vp8)
        }
        // 5000 + 2500 bytes over 100 ms: 600 kbps.
        #expect(KeyframeBridgeTranscoder.bitrate(of: [frame(5000, atMs: 0), frame(2500, atMs: 50), frame(9, atMs: 100)]) == 600_000)
        #expect(KeyframeBridgeTranscoder.bitrate(of: [frame(10, atMs: 0)]) == KeyframeBridgeTranscoder.defaultBitrate)
        #expect(KeyframeBridgeTranscoder.bitrate(of: [frame(10, atMs: 0), frame(10, atMs: 0)]) == KeyframeBridgeTranscoder.defaultBitrate)
        #expect(KeyframeBridgeTranscoder.bitrate(of: [frame(1, atMs: 0), frame(1, atMs: 1000)]) == 100_000, "at least 100 kbps")
    }
}
