import Recorder

extension RecordPlan {
    /// `--composite-size WxH`, `--composite-fps N`, `--composite-layout grid|speaker`, each a
    /// usage error (exit 2) naming its flag when it does not fit, or when `formats` has no
    /// composite (the flag would change nothing: a typo in --formats, most likely).
    static func compositeSettings(_ arguments: ParsedArguments, formats: RecordingFormats) throws -> CompositeSettings {
        var settings = CompositeSettings()
        if !formats.contains(.composite), let flag = compositeFlags.first(where: { arguments.value($0.name) != nil }) {
            throw UsageError.conflicting(option: flag.name, with: "formats", why: "it sets room.webm, which only --formats composite writes")
        }
        for flag in compositeFlags {
            guard let text = arguments.value(flag.name) else { continue }
            do {
                switch flag.name {
                case "composite-size": settings = try settings.applying(size: text)
                case "composite-fps": settings = try settings.applying(framesPerSecond: text)
                default: settings = try settings.applying(layout: text)
                }
            } catch {
                throw UsageError.invalidValue(option: flag.name, value: text, expected: flag.expected)
            }
        }
        return settings
    }

    private static let compositeFlags: [(name: String, expected: String)] = [
        ("composite-size", "WxH with even numbers from 64x64 to 3840x2160"),
        ("composite-fps", "a whole number of frames per second from 1 to 60"),
        ("composite-layout", "grid or speaker"),
    ]
}
