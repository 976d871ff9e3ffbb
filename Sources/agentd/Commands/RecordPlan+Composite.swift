import Recorder

extension RecordPlan {
    /// `--composite-size WxH`, `--composite-fps N`, `--composite-layout grid|speaker`, each a
    /// usage error (exit 2) naming its flag when it does not fit.
    static func compositeSettings(_ arguments: ParsedArguments) throws -> CompositeSettings {
        var settings = CompositeSettings()
        let flags: [(name: String, expected: String)] = [
            ("composite-size", "WxH with even numbers from 64x64 to 3840x2160"),
            ("composite-fps", "a whole number of frames per second from 1 to 60"),
            ("composite-layout", "grid or speaker"),
        ]
        for flag in flags {
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
}
