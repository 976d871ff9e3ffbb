/// Interleaves the composite's two tracks into one ``WebMWriter`` in time order.
///
/// Video frames come out as the compositor renders them; audio packets as the room mix is
/// emitted, which may be up to the mixer's latency budget (2 s) behind. Each track says how far
/// it is complete (``videoComplete(throughMs:)``, ``audioComplete(throughMs:)``: nothing earlier
/// will come), and a frame is written once the other track cannot bring anything before it.
/// Should one track stall for more than ``maximumSkewMs`` (a failed mix), the other is written
/// anyway, so memory stays bounded; late packets are still written at their own times
/// (Matroska needs order within a track, not across tracks).
final class CompositeMuxer {
    struct Packet {
        var ms: Int64
        var bytes: [UInt8]
        var isKeyframe: Bool
    }

    let videoTrack: UInt8
    let audioTrack: UInt8
    let maximumSkewMs: Int64
    private let writer: WebMWriter
    private var video: [Packet] = []
    private var audio: [Packet] = []
    private var videoDoneMs: Int64 = .min
    private var audioDoneMs: Int64 = .min
    private(set) var videoFramesWritten: Int64 = 0
    private(set) var audioPacketsWritten: Int64 = 0

    init(writer: WebMWriter, videoTrack: UInt8, audioTrack: UInt8, maximumSkewMs: Int64 = 5000) {
        self.writer = writer
        self.videoTrack = videoTrack
        self.audioTrack = audioTrack
        self.maximumSkewMs = maximumSkewMs
    }

    var bytesWritten: Int64 { writer.bytesWritten }
    var durationMs: Int64 { writer.durationMs }

    func addVideo(_ packet: Packet) throws {
        video.append(packet)
        videoDoneMs = max(videoDoneMs, packet.ms)
        try drain()
    }

    func addAudio(_ packet: Packet) throws {
        audio.append(packet)
        audioDoneMs = max(audioDoneMs, packet.ms)
        try drain()
    }

    /// No video before `ms` will come any more.
    func videoComplete(throughMs ms: Int64) throws {
        videoDoneMs = max(videoDoneMs, ms)
        try drain()
    }

    /// No audio before `ms` will come any more.
    func audioComplete(throughMs ms: Int64) throws {
        audioDoneMs = max(audioDoneMs, ms)
        try drain()
    }

    /// Writes what is left, in time order, and closes the file.
    func finish() throws {
        videoDoneMs = .max
        audioDoneMs = .max
        try drain()
        try writer.close()
    }

    /// Closes the file as far as it got (after an error elsewhere).
    func abandon() {
        try? writer.close()
    }

    private func drain() throws {
        while true {
            let nextVideo = video.first, nextAudio = audio.first
            if let nextVideo, nextVideo.ms <= (nextAudio?.ms ?? audioDoneMs) || isStalled(behind: audioDoneMs, newest: video.last?.ms) {
                try writer.write(track: videoTrack, timestampMs: nextVideo.ms, keyframe: nextVideo.isKeyframe, frame: nextVideo.bytes)
                video.removeFirst()
                videoFramesWritten += 1
            } else if let nextAudio, nextAudio.ms < (nextVideo?.ms ?? videoDoneMs) || isStalled(behind: videoDoneMs, newest: audio.last?.ms) {
                try writer.write(track: audioTrack, timestampMs: nextAudio.ms, keyframe: true, frame: nextAudio.bytes)
                audio.removeFirst()
                audioPacketsWritten += 1
            } else {
                return
            }
        }
    }

    /// The other track is more than ``maximumSkewMs`` behind this one's newest packet.
    private func isStalled(behind done: Int64, newest: Int64?) -> Bool {
        guard let newest, done != .max else { return false }
        return done == .min ? newest > maximumSkewMs : newest - done > maximumSkewMs
    }
}
