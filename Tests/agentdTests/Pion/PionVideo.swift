import Agent
import Foundation
import TestSupport
import Testing

/// The video a Pion interop test runs with, and what follows from it: the sample file (the same
/// one goes to the Pion publisher and to `agentd play`), the Pion publisher's flag for it, and
/// the files agentd record and the Pion subscriber write.
struct PionVideo: CustomTestStringConvertible, Sendable {
    var codec: MediaCodec
    /// Frames from one keyframe to the next in the sample (30 fps). Pion sends a file as stored
    /// and does not answer a PLI with a keyframe, so agentd record's video starts at the file's
    /// next keyframe.
    var keyframeInterval: Int
    /// The Pion publisher's option for a file of this codec (peers/pion/publisher).
    var publisherFlag: String
    /// agentd record's file for the participant: `<name>.webm`, or `<name>.mkv` for H.264, which
    /// WebM does not allow (MatroskaDocType).
    var recordingExtension: String
    /// What the Pion subscriber writes the video to (peers/pion/subscriber): Pion's ivfwriter
    /// or h264writer.
    var subscriberFile: String

    var testDescription: String { "\(codec.name), a keyframe every \(keyframeInterval) frames" }
    var keyframeSeconds: Double { Double(keyframeInterval) / 30 }

    /// agentd-samples' VP8 in IVF (PatternVideo: a keyframe a second).
    static let vp8 = PionVideo(codec: .vp8, keyframeInterval: 30, publisherFlag: "--ivf", recordingExtension: "webm",
                               subscriberFile: "video.ivf")
    /// ffmpeg's libx264 constrained baseline in Annex B, an IDR a second as VP8's.
    static let h264 = PionVideo(codec: .h264, keyframeInterval: 30, publisherFlag: "--h264", recordingExtension: "mkv",
                                subscriberFile: "video.h264")
    /// The same with an IDR every 3 s (GeneratedSamples.h264Stream's default): longer than agentd
    /// record holds audio while it waits for a publisher's first keyframe.
    static let h264SparseKeyframes = PionVideo(codec: .h264, keyframeInterval: 90, publisherFlag: "--h264",
                                               recordingExtension: "mkv", subscriberFile: "video.h264")
    static let all = [vp8, h264]

    /// Writes the 5 s 320x240 30 fps test pattern for this codec into `scratch`.
    func sample(in scratch: ScratchDirectory) async throws -> String {
        codec == .h264 ? try await GeneratedSamples.h264Stream(in: scratch, keyframeInterval: keyframeInterval)
            : try await GeneratedSamples.encoded("pattern-vp8.ivf", in: scratch)
    }
}
