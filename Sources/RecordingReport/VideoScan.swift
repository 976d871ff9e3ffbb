import Agent
import BotKit

/// What a participant's WebM (or Matroska) files show of their video: how many frames, where
/// it froze (consecutive frames more than ``freezeThresholdMs`` apart on the recording's
/// timeline), and a thumbnail from the first keyframe that decodes.
///
/// The files are streamed frame by frame with ``WebMReader`` (it refuses oversized frames and
/// elements before allocating), and only keyframes are decoded, until one gives a picture, so a
/// long recording costs one pass over its bytes and one decode.
public struct VideoScan: Sendable {
    public static let freezeThresholdMs: Int64 = 500
    /// Freezes listed; more still count in ``freezeMs``.
    public static let maxFreezes = 10_000
    /// Keyframes tried for a thumbnail before giving up on one.
    static let thumbnailAttempts = 3

    public private(set) var frames = 0
    public private(set) var freezes: [TimelineSpan] = []
    public private(set) var freezeMs: Int64 = 0
    public private(set) var thumbnail: RGBImage?
    /// What could not be read, one line each, for the report's notes.
    public private(set) var problems: [String] = []

    let thumbnailWidth: Int
    let thumbnailHeight: Int
    private var lastFrameMs: Int64?
    private var attempts = 0

    public init(thumbnailWidth: Int = 160, thumbnailHeight: Int = 120) {
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
    }

    /// Reads one file whose time 0 is `startMs` on the timeline. Files of one participant come
    /// in order; a freeze may span the boundary between two.
    public mutating func scan(path: String, startMs: Int64) {
        let reader: WebMReader
        do {
            reader = try WebMReader(path: path)
        } catch {
            problems.append("\(Self.fileName(path)): \(error)")
            return
        }
        defer { reader.close() }
        guard let track = reader.tracks.first(where: { $0.type == .video }) else { return }
        var decoder = ThumbnailDecoder(track: track)
        do {
            while let frame = try reader.nextFrame() {
                guard frame.trackNumber == track.number else { continue }
                let (offset, overflow) = startMs.addingReportingOverflow(frame.timestampNanoseconds / 1_000_000)
                note(frameAtMs: overflow ? .max : offset)
                if thumbnail == nil, frame.isKeyframe, attempts < Self.thumbnailAttempts, var current = decoder {
                    attempts += 1
                    thumbnail = current.picture(frame.bytes)?.rgbThumbnail(maxWidth: thumbnailWidth, maxHeight: thumbnailHeight)
                    decoder = current
                }
            }
        } catch {
            problems.append("\(Self.fileName(path)): \(error)")
        }
    }

    private mutating func note(frameAtMs ms: Int64) {
        frames += 1
        defer { lastFrameMs = max(lastFrameMs ?? ms, ms) }
        guard let last = lastFrameMs else { return }
        let span = TimelineSpan(startMs: last, endMs: ms)
        guard span.durationMs > Self.freezeThresholdMs else { return }
        freezeMs = freezeMs.addingReportingOverflow(span.durationMs).overflow ? .max : freezeMs + span.durationMs
        if freezes.count < Self.maxFreezes { freezes.append(span) }
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
