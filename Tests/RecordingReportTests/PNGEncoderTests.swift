import Agent
import Foundation
import TestSupport
import Testing

/// PNGEncoder and the thumbnail it encodes live in AgentMedia; they are tested here, beside the
/// report that is their one user, with ffmpeg as the independent decoder.
@Suite(.offThePool) struct PNGEncoderTests {
    /// A picture with a different colour in every pixel, so any filter or byte-order mistake shows.
    static func gradient(width: Int, height: Int) throws -> RGBImage {
        var pixels: [UInt8] = []
        for row in 0..<height {
            for column in 0..<width {
                pixels += [UInt8(truncatingIfNeeded: column * 255 / max(1, width - 1)),
                           UInt8(truncatingIfNeeded: row * 255 / max(1, height - 1)),
                           UInt8(truncatingIfNeeded: (column * 7 + row * 13) % 256)]
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    /// ffmpeg's reading of a PNG: its size and its pixels as packed RGB.
    static func decodeWithFFmpeg(_ png: [UInt8]) async throws -> (size: String, pixels: [UInt8]) {
        let scratch = try ScratchDirectory("png")
        let input = scratch.path("in.png"), output = scratch.path("out.rgb")
        try Data(png).write(to: URL(fileURLWithPath: input))
        let probe = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height",
                                                           "-of", "csv=p=0", input])
        let decode = try await runTool("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", input, "-f", "rawvideo",
                                                           "-pix_fmt", "rgb24", output])
        #expect(decode.status == 0 && decode.errors.isEmpty, "ffmpeg: \(decode.errors)")
        let pixels = (try? Data(contentsOf: URL(fileURLWithPath: output))).map { [UInt8]($0) } ?? []
        return (probe.output.trimmingCharacters(in: .whitespacesAndNewlines), pixels)
    }

    @Test("ffmpeg decodes what it writes to the same pixels, at odd and even sizes")
    func roundTripThroughFFmpeg() async throws {
        for (width, height) in [(1, 1), (7, 5), (160, 90)] {
            let image = try Self.gradient(width: width, height: height)
            let png = try PNGEncoder.encode(image)
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let decoded = try await Self.decodeWithFFmpeg(png)
            #expect(decoded.size == "png,\(width),\(height)")
            #expect(decoded.pixels == image.pixels, "\(width)x\(height)")
        }
    }

    @Test("IHDR holds the size, 8-bit truecolour; IEND closes with its fixed CRC")
    func chunkLayout() throws {
        let png = try PNGEncoder.encode(try Self.gradient(width: 300, height: 2))
        // length 13, "IHDR", width 300, height 2, depth 8, colour type 2, compression, filter, interlace
        #expect(Array(png[8..<29]) == [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 44, 0, 0, 0, 2, 8, 2, 0, 0, 0])
        // IEND: length 0, "IEND", CRC AE 42 60 82 (the same in every PNG).
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test("a picture larger than the limit is refused, and RGBImage checks its buffer")
    func limits() throws {
        #expect(throws: I420FrameError.self) { try RGBImage(width: 2, height: 2, pixels: [0, 0, 0]) }
        #expect(throws: I420FrameError.self) { try RGBImage(width: 0, height: 2, pixels: []) }
        let big = try RGBImage(width: 4000, height: 2100, pixels: [UInt8](repeating: 0, count: 4000 * 2100 * 3))
        #expect(throws: PNGError.tooLarge(width: 4000, height: 2100)) { try PNGEncoder.encode(big) }
    }

    static func rgb(_ image: RGBImage, _ x: Int, _ y: Int) -> [UInt8] {
        let pixel = image.pixel(x: x, y: y)
        return [pixel.red, pixel.green, pixel.blue]
    }

    @Test("a thumbnail keeps the aspect, never upscales, and converts BT.601 video-range colours")
    func thumbnail() throws {
        let wide = try I420Frame(width: 1280, height: 720, luma: 235)
        let small = wide.rgbThumbnail(maxWidth: 160, maxHeight: 120)
        #expect("\(small.width)x\(small.height)" == "160x90")
        #expect(Self.rgb(small, 80, 45) == [255, 255, 255])
        let tiny = try I420Frame(width: 64, height: 48, luma: 16)
        let same = tiny.rgbThumbnail(maxWidth: 160, maxHeight: 120)
        #expect("\(same.width)x\(same.height)" == "64x48")
        #expect(Self.rgb(same, 0, 0) == [0, 0, 0])
        // Pure red in video range: Y 81, U 90, V 240.
        var red = try I420Frame(width: 32, height: 32, luma: 81)
        red.u = [UInt8](repeating: 90, count: red.u.count)
        red.v = [UInt8](repeating: 240, count: red.v.count)
        let pixel = red.rgbThumbnail(maxWidth: 8, maxHeight: 8).pixel(x: 3, y: 3)
        #expect(pixel.red >= 250 && pixel.green <= 5 && pixel.blue <= 5, "\(pixel)")
    }
}
