/// Why composite settings (`--composite-size`, `--composite-fps`, `--composite-layout`, or the
/// API's `composite` object) were refused.
public enum CompositeSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSize(String)
    case invalidFramesPerSecond(String)
    case unknownLayout(String)

    public var description: String {
        switch self {
        case .invalidSize(let text):
            "size '\(text)' is not WxH with even numbers in \(CompositeSettings.widths) x \(CompositeSettings.heights)"
        case .invalidFramesPerSecond(let text): "frame rate '\(text)' is not a whole number in \(CompositeSettings.framesPerSecondRange)"
        case .unknownLayout(let text):
            "layout '\(text)' is not one of \(CompositeLayout.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
