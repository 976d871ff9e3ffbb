import Agent
import Foundation
import TestSupport
import Testing

@testable import BotKit

@Suite(.offThePool) struct IVFReaderTests {

    private func run(_ executable: String, _ arguments: [String]) async throws -> String { try await runTool(executable, arguments).output }

    /// 90 kHz ticks per frame at 30 fps, the encoder's default timebase.
    static let ticksPerFrame: Int64 = 3000

    /// Encodes `count` frames of the moving test pattern, forcing keyframes where asked.
    private func encode(_ codec: VPXCodec, width: Int, height: Int, count: Int,
                        forceKeyframeAt: Set<Int> = []) throws -> [VPXEncodedFrame] {
        let encoder = try VPXEncoder(configuration: .init(codec: codec, bitrate: 500_000))
        var frames: [VPXEncodedFrame] = []
        for index in 0..<count {
            if forceKeyframeAt.contains(index) { encoder.forceKeyframe() }
            let picture = try I420Frame.testPattern(width: width, height: height, frameIndex: index)
            frames += try encoder.encode(picture, pts: Int64(index) * Self.ticksPerFrame)
        }
        return frames
    }

    private func writeIVF(_ frames: [VPXEncodedFrame], codec: VPXCodec, width: Int, height: Int, to path: String) throws {
        let writer = try IVFWriter(path: path, codec: codec, width: width, height: height)
        for frame in frames { try writer.write(frame) }
        try writer.close()
        try writer.close()  // idempotent
    }


    @Test func vp8FramesComeBackWithTheirBytesTimesAndKeyframes() throws {
        let scratch = try ScratchDirectory("ivf")
        let path = scratch.path("pattern.ivf")
        let frames = try encode(.vp8, width: 320, height: 240, count: 30, forceKeyframeAt: [15])
        #expect(frames.count == 30)
        try writeIVF(frames, codec: .vp8, width: 320, height: 240, to: path)

        let reader = try IVFReader(path: path)
        #expect(reader.codec == .vp8)
        #expect(reader.width == 320 && reader.height == 240)
        #expect(reader.header.frameCount == 30)
        #expect(reader.header.timebaseNumerator == 1 && reader.header.timebaseDenominator == 90_000)
        let read = try reader.readAll()
        #expect(read.count == 30)
        #expect(read.map(\.bytes) == frames.map(\.data))
        #expect(read.map(\.timestampNanoseconds) == (0..<30).map { Int64($0) * 1_000_000_000 / 30 })
        #expect(read.map(\.isKeyframe) == frames.map(\.isKeyframe))
        #expect(read.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 15])
        #expect(read.allSatisfy { $0.codec == .vp8 })
        #expect(try reader.nextFrame() == nil)
    }

    @Test func ffprobeReadsOurIVFAsVP8AtTheRightSize() async throws {
        let scratch = try ScratchDirectory("ivf")
        let path = scratch.path("probe.ivf")
        try writeIVF(try encode(.vp8, width: 320, height: 240, count: 10), codec: .vp8, width: 320, height: 240, to: path)
        let output = try await run("/usr/bin/ffprobe", ["-v", "error", "-count_packets", "-show_entries",
                                                  "stream=codec_name,width,height,nb_read_packets", "-of", "default=nw=1", path])
        let fields = Set(output.split(separator: "\n").map(String.init))
        #expect(fields == ["codec_name=vp8", "width=320", "height=240", "nb_read_packets=10"], "\(output)")
    }

    @Test func vp9KeyframesAreFoundInTheUncompressedHeader() throws {
        let scratch = try ScratchDirectory("ivf")
        let path = scratch.path("vp9.ivf")
        let frames = try encode(.vp9, width: 160, height: 120, count: 8, forceKeyframeAt: [5])
        try writeIVF(frames, codec: .vp9, width: 160, height: 120, to: path)
        let read = try IVFReader(path: path).readAll()
        #expect(read.count == frames.count)
        #expect(read.map(\.isKeyframe) == frames.map(\.isKeyframe))
        #expect(read.filter(\.isKeyframe).count == 2)
        #expect(read.allSatisfy { $0.codec == .vp9 })
    }

    @Test func headerBytesParseFieldByField() throws {
        let bytes: [UInt8] = [
            0x44, 0x4B, 0x49, 0x46,  // "DKIF"
            0x00, 0x00,  // version 0
            0x20, 0x00,  // header length 32
            0x56, 0x50, 0x38, 0x30,  // "VP80"
            0x80, 0x02,  // width 640
            0xE0, 0x01,  // height 480
            0x1E, 0x00, 0x00, 0x00,  // timebase denominator 30
            0x01, 0x00, 0x00, 0x00,  // timebase numerator 1
            0x2A, 0x00, 0x00, 0x00,  // 42 frames
            0x00, 0x00, 0x00, 0x00,  // unused
        ]
        let header = try IVFHeader(parsing: bytes)
        #expect(header == IVFHeader(codec: .vp8, width: 640, height: 480, timebaseNumerator: 1,
                                    timebaseDenominator: 30, frameCount: 42))
        #expect(header.encoded() == bytes)
        #expect(header.nanoseconds(pts: 3) == 100_000_000)

        var badVersion = bytes
        badVersion[4] = 1
        #expect(throws: IVFError.unsupportedVersion(1)) { try IVFHeader(parsing: badVersion) }
        var badFourCC = bytes
        badFourCC[8..<12] = [0x41, 0x56, 0x30, 0x31]  // "AV01"
        #expect(throws: IVFError.unsupportedFourCC("AV01")) { try IVFHeader(parsing: badFourCC) }
        var zeroTimebase = bytes
        zeroTimebase[16] = 0
        #expect(throws: IVFError.badTimebase(numerator: 1, denominator: 0)) { try IVFHeader(parsing: zeroTimebase) }
        var shortHeaderLength = bytes
        shortHeaderLength[6] = 0x10
        #expect(throws: IVFError.badHeaderLength(16)) { try IVFHeader(parsing: shortHeaderLength) }
    }

    @Test func garbageAndTruncatedFilesThrowTypedErrors() throws {
        let scratch = try ScratchDirectory("ivf")
        let good = scratch.path("good.ivf")
        try writeIVF(try encode(.vp8, width: 160, height: 120, count: 3), codec: .vp8, width: 160, height: 120, to: good)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let firstSize = Int(bytes[32]) | Int(bytes[33]) << 8 | Int(bytes[34]) << 16

        func file(_ name: String, _ contents: [UInt8]) -> String {
            let path = scratch.path(name)
            _ = FileManager.default.createFile(atPath: path, contents: Data(contents))
            return path
        }

        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(throws: IVFError.badSignature(Array(garbage[0..<4]))) { try IVFReader(path: file("garbage.ivf", garbage)) }
        #expect(throws: IVFError.truncatedHeader(got: 0)) { try IVFReader(path: file("empty.ivf", [])) }
        #expect(throws: IVFError.truncatedHeader(got: 20)) { try IVFReader(path: file("short.ivf", Array(bytes[0..<20]))) }
        // Fixture: a header length of 65535 in a 42-byte file was reported as "32 of 32 bytes".
        var longHeader = Array(bytes[0..<42])
        longHeader[6...7] = [0xFF, 0xFF]
        let longHeaderError = #expect(throws: IVFError.truncatedHeader(got: 42, needed: 65535)) {
            try IVFReader(path: file("long-header.ivf", longHeader))
        }
        #expect(longHeaderError?.description == "IVF header truncated: 42 of 65535 bytes")
        #expect(IVFError.truncatedHeader(got: 20).description == "IVF header truncated: 20 of 32 bytes")
        #expect(throws: IVFError.io(operation: "open", path: scratch.path("missing.ivf"), message: "cannot open for reading")) {
            try IVFReader(path: scratch.path("missing.ivf"))
        }

        let cutFrameHeader = try IVFReader(path: file("cut-header.ivf", Array(bytes[0..<(32 + 7)])))
        #expect(throws: IVFError.truncatedFrameHeader(offset: 32, got: 7)) { try cutFrameHeader.nextFrame() }

        let cutFrame = try IVFReader(path: file("cut-frame.ivf", Array(bytes[0..<(32 + 12 + 10)])))
        #expect(throws: IVFError.truncatedFrame(offset: 32, needed: firstSize, got: 10)) { try cutFrame.nextFrame() }

        var hugeSize = bytes
        hugeSize[32..<36] = [0xFF, 0xFF, 0xFF, 0x7F]
        let huge = try IVFReader(path: file("huge.ivf", hugeSize))
        #expect(throws: IVFError.frameTooLarge(offset: 32, size: 0x7FFF_FFFF)) { try huge.nextFrame() }

        // A second frame cut short: the first still reads, then the error names the second's offset.
        let secondOffset = 32 + 12 + firstSize
        let cutSecond = try IVFReader(path: file("cut-second.ivf", Array(bytes[0..<(secondOffset + 12 + 1)])))
        #expect(try cutSecond.nextFrame()?.isKeyframe == true)
        #expect(throws: IVFError.self) { try cutSecond.nextFrame() }
    }

    @Test func ffmpegsIVFReadsWithItsOwnTimebase() async throws {
        let scratch = try ScratchDirectory("ivf")
        let path = scratch.path("ffmpeg.ivf")
        _ = try await run("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25",
                                        "-t", "1", "-c:v", "libvpx", "-g", "10", "-f", "ivf", path])
        let reader = try IVFReader(path: path)
        #expect(reader.codec == .vp8 && reader.width == 176 && reader.height == 144)
        let frames = try reader.readAll()
        #expect(frames.count == 25)
        // Whatever timebase ffmpeg picked, the times are 40 ms apart from zero.
        #expect(frames.map(\.timestampNanoseconds) == (0..<25).map { Int64($0) * 40_000_000 })
        #expect(frames.enumerated().filter(\.element.isKeyframe).map(\.offset) == [0, 10, 20])
        // Each frame decodes with libvpx to the header's size.
        let decoder = try VPXDecoder(codec: .vp8)
        for frame in frames {
            let pictures = try decoder.decode(frame.bytes)
            #expect(pictures.count == 1 && pictures.first?.width == 176 && pictures.first?.height == 144)
        }
    }

    @Test func keyframeBitsOfVP8AndVP9Headers() {
        // VP8 frame tag: bit 0 is the inverse key frame flag.
        #expect(IVFReader.isKeyframe([0x50, 0x2D, 0x01, 0x9D, 0x01, 0x2A], codec: .vp8))
        #expect(!IVFReader.isKeyframe([0x31, 0x02, 0x00], codec: .vp8))
        // VP9 profile 0: 10 0 0 | show_existing 0 | frame_type 0 (key) | ...
        #expect(IVFReader.isKeyframe([0b1000_0010], codec: .vp9))
        // profile 0, frame_type 1 (inter)
        #expect(!IVFReader.isKeyframe([0b1000_0110], codec: .vp9))
        // profile 0, show_existing_frame 1: a repeat, never a keyframe
        #expect(!IVFReader.isKeyframe([0b1000_1000], codec: .vp9))
        // profile 3 has a reserved zero bit first: 10 1 1 | 0 | show_existing 0 | frame_type 0
        #expect(IVFReader.isKeyframe([0b1011_0000], codec: .vp9))
        #expect(!IVFReader.isKeyframe([0b1011_0010], codec: .vp9))
        // Not a VP9 frame marker, or nothing at all.
        #expect(!IVFReader.isKeyframe([0x00], codec: .vp9))
        #expect(!IVFReader.isKeyframe([], codec: .vp8))
    }

    @Test func writerRefusesSizesIVFCannotStoreAndWritesAfterClose() throws {
        let scratch = try ScratchDirectory("ivf")
        #expect(throws: IVFError.self) { try IVFWriter(path: scratch.path("big.ivf"), codec: .vp8, width: 70_000, height: 10) }
        let writer = try IVFWriter(path: scratch.path("closed.ivf"), codec: .vp8, width: 16, height: 16)
        try writer.close()
        #expect(throws: IVFError.closed(path: scratch.path("closed.ivf"))) { try writer.write([0x10], pts: 0) }
    }
}
