/// The room composite's picture: size, frame rate and layout (`--composite-size WxH`,
/// `--composite-fps N`, `--composite-layout grid|speaker`; the API's `composite` object).
///
/// Sizes are even (I420's chroma planes are half size, and tiles sit on even samples) and
/// bounded: 64x64 up to 3840x2160 (4K UHD). Frame rates are whole numbers 1...60. Values come
/// from outside, so every initializer checks them and throws instead of trapping.
public struct CompositeSettings: Sendable, Equatable {
    public static let widths = 64...3840
    public static let heights = 64...2160
    public static let framesPerSecondRange = 1...60

    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    public let layout: CompositeLayout

    /// 1280x720 at 15 fps in a grid: the default.
    public init() {
        width = 1280
        height = 720
        framesPerSecond = 15
        layout = .grid
    }

    public init(width: Int, height: Int, framesPerSecond: Int = 15, layout: CompositeLayout = .grid) throws(CompositeSettingsError) {
        guard Self.widths.contains(width), Self.heights.contains(height), width % 2 == 0, height % 2 == 0 else {
            throw .invalidSize("\(width)x\(height)")
        }
        guard Self.framesPerSecondRange.contains(framesPerSecond) else { throw .invalidFramesPerSecond("\(framesPerSecond)") }
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.layout = layout
    }

    /// These settings with the given texts applied (nil keeps the current value): what the CLI
    /// and the API both call.
    public func applying(size: String? = nil, framesPerSecond fps: String? = nil, layout layoutName: String? = nil)
        throws(CompositeSettingsError) -> CompositeSettings
    {
        var (width, height) = (self.width, self.height)
        if let size { (width, height) = try Self.parseSize(size) }
        var rate = framesPerSecond
        if let fps {
            guard fps.utf8.count <= 4, let parsed = Int(fps) else {
                throw .invalidFramesPerSecond(String(fps.prefix(16)))
            }
            rate = parsed
        }
        var layout = self.layout
        if let layoutName {
            guard let parsed = CompositeLayout(rawValue: layoutName.lowercased()) else {
                throw .unknownLayout(String(layoutName.prefix(32)))
            }
            layout = parsed
        }
        return try CompositeSettings(width: width, height: height, framesPerSecond: rate, layout: layout)
    }

    /// `WxH` (an `x` or `X` between two whole numbers), checked against the bounds.
    public static func parseSize(_ text: String) throws(CompositeSettingsError) -> (width: Int, height: Int) {
        let shown = String(text.prefix(32))
        guard text.utf8.count <= 16 else { throw .invalidSize(shown) }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              widths.contains(width), heights.contains(height), width % 2 == 0, height % 2 == 0
        else { throw .invalidSize(shown) }
        return (width, height)
    }

    /// `1280x720`.
    public var sizeText: String { "\(width)x\(height)" }

    /// The encoder's target: about 0.07 bits per pixel per frame (1.0 Mbps at 720p15), which
    /// keeps tiles of talking heads sharp; bounded to 150 kbps ... 12 Mbps.
    public var bitrate: Int {
        min(12_000_000, max(150_000, width * height * framesPerSecond * 7 / 100))
    }
}
