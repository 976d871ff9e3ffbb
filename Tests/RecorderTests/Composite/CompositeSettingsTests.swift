import Testing

@testable import Recorder

@Suite struct CompositeSettingsTests {
    @Test func defaultsAre720pAt15FramesInAGrid() {
        let settings = CompositeSettings()
        #expect(settings.width == 1280 && settings.height == 720 && settings.framesPerSecond == 15 && settings.layout == .grid)
        #expect(settings.sizeText == "1280x720")
        #expect(settings.bitrate == 967_680)
    }

    @Test func appliesTextsFromTheCommandLine() throws {
        let settings = try CompositeSettings().applying(size: "640X360", framesPerSecond: "30", layout: "Speaker")
        #expect(settings == (try CompositeSettings(width: 640, height: 360, framesPerSecond: 30, layout: .speaker)))
        #expect(try CompositeSettings().applying(size: "3840x2160").width == 3840)
        #expect(try CompositeSettings().applying(size: "64x64").height == 64)
        #expect(try CompositeSettings().applying() == CompositeSettings())
    }

    @Test(arguments: ["1281x720", "1280x721", "62x64", "3842x2160", "1280x2162", "1280", "x720", "1280x720x2", "-1280x720",
                      "1280 x 720", "", "99999999999999999999x720", "１２８０x720"])
    func refusesBadSizes(_ text: String) {
        #expect(throws: CompositeSettingsError.self) { try CompositeSettings().applying(size: text) }
    }

    @Test func refusesBadRatesAndLayouts() {
        #expect(throws: CompositeSettingsError.invalidFramesPerSecond("0")) { try CompositeSettings().applying(framesPerSecond: "0") }
        #expect(throws: CompositeSettingsError.invalidFramesPerSecond("61")) { try CompositeSettings().applying(framesPerSecond: "61") }
        #expect(throws: CompositeSettingsError.invalidFramesPerSecond("7.5")) { try CompositeSettings().applying(framesPerSecond: "7.5") }
        #expect(throws: CompositeSettingsError.unknownLayout("mosaic")) { try CompositeSettings().applying(layout: "mosaic") }
        #expect(CompositeSettingsError.invalidSize("1x1").description == "size '1x1' is not WxH with even numbers in 64...3840 x 64...2160")
        #expect(CompositeSettingsError.unknownLayout("x").description == "layout 'x' is not one of grid, speaker")
    }
}
