import Agent
import Foundation

/// Builds the room events a recorder would get, with real Opus and VP8 frames and consistent
/// RTP timestamps and wall times, placed on a timeline starting at ``startedAt``.
struct RoomEventScript {
    static let startedAt = Date(timeIntervalSince1970: 1_800_000_000)
    static var startNanoseconds: Int64 { Int64(startedAt.timeIntervalSince1970 * 1_000_000_000) }

    /// Events with the wall time (ns) that orders them.
    private(set) var timed: [(ns: Int64, order: Int, event: RoomEvent)] = []
    private var counter = 0

    static func date(ms: Int64) -> Date { startedAt.addingTimeInterval(Double(ms) / 1000) }
    static func ns(ms: Double) -> Int64 { startNanoseconds + Int64((ms * 1_000_000).rounded()) }

    mutating func add(_ event: RoomEvent, atMs ms: Double) {
        timed.append((Self.ns(ms: ms), counter, event))
        counter += 1
    }

    mutating func join(_ id: String, _ display: String, atMs ms: Double, video: Bool = true,
                       videoCodec: MediaCodec = .vp8) {
        add(.participantJoined(id: id, display: display, at: Self.date(ms: Int64(ms))), atMs: ms)
        add(.trackAdded(participantID: id, kind: .audio, codec: .opus), atMs: ms)
        if video { add(.trackAdded(participantID: id, kind: .video, codec: videoCodec), atMs: ms) }
    }

    mutating func leave(_ id: String, atMs ms: Double) {
        add(.participantLeft(id: id, at: Self.date(ms: Int64(ms))), atMs: ms)
    }

    /// A tone in 20 ms Opus packets from `fromMs` to `toMs`; RTP starts at `rtpBase`.
    /// From packet `senderReportFrom` on, the wall times are mapped by a sender report (exact);
    /// before, by arrival, `arrivalErrorMs` late. `arrivalDelayMs` delays the packets' place in
    /// the event order (not their wall times), as a sender or network running behind does.
    mutating func audio(_ id: String, frequency: Double, fromMs: Double, toMs: Double, rtpBase: Int64 = 12_345,
                        arrivalErrorMs: Double = 0, arrivalDelayMs: Double = 0, senderReportFrom: Int = 51) throws {
        let encoder = try OpusEncoder(configuration: .init(channels: 1, application: .audio, bitrate: 64_000))
        let packets = Int(((toMs - fromMs) / 20).rounded())
        for index in 0..<packets {
            let pcm = tone(frequency: frequency, count: 960, start: index * 960)
            let packet = try encoder.encode(pcm)
            let frame = RemoteFrame(
                participantID: id, kind: .audio, codec: .opus, bytes: packet, isKeyframe: true,
                rtpTimestamp: rtpBase + Int64(index * 960), clockRate: 48_000,
                wallTimeNanoseconds: Self.ns(ms: fromMs + Double(index) * 20 + (index >= senderReportFrom ? 0 : arrivalErrorMs)),
                mappedBySenderReport: index >= senderReportFrom)
            add(.frame(frame), atMs: fromMs + Double(index) * 20 + arrivalDelayMs)
        }
    }

    /// VP8 frames at 30 fps from `fromMs`; the encoded frames are given (see ``encodeVideo``).
    /// `arrivalDelayMs` delays the frames' place in the event order (not their wall times), as a
    /// slower video path does. From frame `senderReportFrom` on, the wall times are mapped by a
    /// sender report (exact); before, by arrival, `arrivalErrorMs` late.
    mutating func video(_ id: String, frames: [VPXEncodedFrame], fromMs: Double, rtpBase: Int64 = 777,
                        arrivalDelayMs: Double = 0, arrivalErrorMs: Double = 0, senderReportFrom: Int = .max) {
        video(id, frames: frames.map { ($0.data, $0.isKeyframe, $0.codec.mediaCodec) }, fromMs: fromMs, rtpBase: rtpBase,
              arrivalDelayMs: arrivalDelayMs, arrivalErrorMs: arrivalErrorMs, senderReportFrom: senderReportFrom)
    }

    /// The same for frames of any codec (H.264 access units in Annex B form).
    mutating func video(_ id: String, frames: [(bytes: [UInt8], isKeyframe: Bool, codec: MediaCodec)], fromMs: Double,
                        rtpBase: Int64 = 777, arrivalDelayMs: Double = 0, arrivalErrorMs: Double = 0,
                        senderReportFrom: Int = .max) {
        for (index, encoded) in frames.enumerated() {
            let ms = fromMs + Double(index) * 1000 / 30
            let bySenderReport = index >= senderReportFrom
            let frame = RemoteFrame(
                participantID: id, kind: .video, codec: encoded.codec, bytes: encoded.bytes,
                isKeyframe: encoded.isKeyframe, rtpTimestamp: rtpBase + Int64(index * 3000), clockRate: 90_000,
                wallTimeNanoseconds: Self.ns(ms: bySenderReport ? ms : ms + arrivalErrorMs), mappedBySenderReport: bySenderReport)
            add(.frame(frame), atMs: ms + arrivalDelayMs)
        }
    }

    /// `count` frames of the test pattern at `width`x`height`, 30 fps; keyframes at `keyframesAt`.
    /// Patterns are computed for 15 indices and cycled, which keeps debug builds fast.
    static func encodeVideo(count: Int, width: Int = 640, height: Int = 480, firstIndex: Int = 0,
                            keyframesAt: Set<Int> = [0], codec: VPXCodec = .vp8,
                            encoder: VPXEncoder? = nil) throws -> [VPXEncodedFrame] {
        let encoder = try encoder ?? VPXEncoder(configuration: .init(codec: codec, bitrate: 600_000))
        let patterns = try (0..<15).map { try I420Frame.testPattern(width: width, height: height, frameIndex: $0) }
        var frames: [VPXEncodedFrame] = []
        for index in 0..<count {
            if keyframesAt.contains(index) { encoder.forceKeyframe() }
            let pts = Int64(firstIndex + index) * 3000
            frames += try encoder.encode(patterns[index % patterns.count], pts: pts)
        }
        return frames
    }

    /// The events in wall-time order (stable for equal times).
    var events: [RoomEvent] {
        timed.sorted { ($0.ns, $0.order) < ($1.ns, $1.order) }.map(\.event)
    }
}

/// Goertzel power of `frequency` over `samples` (48 kHz), normalized by length.
func goertzel(_ samples: ArraySlice<Int16>, frequency: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / 48_000)
    var previous = 0.0, beforePrevious = 0.0
    for sample in samples {
        let current = Double(sample) + coefficient * previous - beforePrevious
        beforePrevious = previous
        previous = current
    }
    let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    return power / Double(max(1, samples.count))
}
