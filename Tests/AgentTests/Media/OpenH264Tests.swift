import Foundation
import TestSupport
import Testing

@testable import AgentMedia

/// libopenh264 through our wrappers: what the encoder makes is constrained-baseline H.264 that
/// our decoder and ffmpeg both decode, IDRs come first, on request and at a new size, and bad
/// input is a typed error.
@Suite(.offThePool) struct OpenH264Tests {
    /// The NAL unit types of an Annex-B access unit, in order (4- and 3-byte start codes).
    static func nalTypes(_ bytes: [UInt8]) -> [Int] {
        AnnexBScanner.nalUnits(in: bytes).map { Int(H264NALUnitType.bits(of: bytes[$0.lowerBound])) }
    }

    @Test func encodedFramesDecodeToTheirPicturesWithIDRsFirstAndOnRequest() async throws {
        let encoder = try OpenH264Encoder(configuration: .init(bitrate: 500_000))
        let decoder = try OpenH264Decoder()
        var stream: [UInt8] = []
        var keyframes: [Int] = []
        var worst = 0.0
        var decoded = 0
        for index in 0..<45 {
            if index == 20 { encoder.forceKeyframe() }
            // At frame 30 the size changes: a new encoder, starting with an IDR.
            let (width, height) = index < 30 ? (320, 240) : (176, 144)
            let original = try I420Frame.testPattern(width: width, height: height, frameIndex: index)
            guard let frame = try encoder.encode(original, timestampMs: Int64(index) * 33) else { continue }
            #expect((frame.width, frame.height) == (width, height))
            let types = Self.nalTypes(frame.bytes)
            #expect(frame.isKeyframe == types.contains(5), "frame \(index): \(types)")
            if frame.isKeyframe {
                keyframes.append(index)
                #expect(types.prefix(2) == [7, 8], "an IDR comes with its SPS and PPS: \(types)")
            }
            stream += frame.bytes
            for picture in try decoder.decode(frame.bytes) {
                decoded += 1
                #expect((picture.width, picture.height) == (width, height))
                worst = max(worst, picture.meanLumaDifference(from: original))
            }
        }
        print("OpenH264: IDRs at \(keyframes), \(decoded) pictures decoded, worst mean luma difference \(String(format: "%.2f", worst))")
        #expect(keyframes == [0, 20, 30])
        #expect(decoded >= 43, "rate control may skip a frame or two, not more")
        #expect(worst < 10)

        // ffmpeg reads the same bytes as an H.264 elementary stream, without a complaint.
        let scratch = try ScratchDirectory("openh264")
        let path = scratch.path("stream.h264")
        try Data(stream).write(to: URL(fileURLWithPath: path))
        let errors = try await runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"], includeStderr: true)
        #expect(errors.status == 0 && errors.output.isEmpty, "\(errors.output)")
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                       "stream=codec_name,profile", "-of", "csv=p=0", path])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,Constrained Baseline", "\(probe.output)")
    }

    @Test func badInputIsATypedError() throws {
        #expect(throws: OpenH264Error.self) { try OpenH264Encoder(configuration: .init(bitrate: 5)) }
        #expect(throws: OpenH264Error.self) { try OpenH264Encoder(configuration: .init(framesPerSecond: 0)) }
        let encoder = try OpenH264Encoder()
        #expect(throws: OpenH264Error.self) { try encoder.encode(try I420Frame(width: 15, height: 15), timestampMs: 0) }
        #expect(throws: OpenH264Error.self) { try encoder.setBitrate(1) }
        let decoder = try OpenH264Decoder()
        #expect(throws: OpenH264Error.self) { try decoder.decode([]) }
        // A slice without its parameter sets cannot be decoded: an error or no picture, never a crash.
        let orphan: [UInt8] = [0, 0, 0, 1, 0x65, 0x88, 0x84, 0x00, 0x33, 0xFF, 0x00, 0x12]
        let pictures = try? decoder.decode(orphan)
        #expect(pictures?.isEmpty ?? true)
        // Random NAL units: the same.
        var noise = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let bytes = [0, 0, 0, 1] + (0..<200).map { _ in UInt8.random(in: 0...255, using: &noise) }
            _ = try? decoder.decode(bytes)
        }
    }
}
