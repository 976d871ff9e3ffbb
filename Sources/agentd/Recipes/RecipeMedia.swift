import Agent
import AgentdCore
import BotKit
import Foundation

/// What one participant of a host recipe publishes, built fresh for each participant (file
/// sources and tracks hold state). Files are opened in ``botMedia(_:)``, so a missing,
/// unsupported or irregular (FIFO, device) file is a usage error (exit 2) before anything joins.
struct RecipeMedia: Sendable {
    var audioTrack: AudioTrack?
    var videoTrack: VideoTrack?
    var square: MovingSquare?

    /// The live tracks the recipe's sources push into (none for files).
    init(recipe: Recipe) throws {
        switch recipe.audio {
        case .tone, .speech, .echo, .silence:
            // Speech is mostly silence between sentences; music settings keep a tone clean.
            let application: OpusEncoder.Application = if case .speech = recipe.audio { .voip } else { .audio }
            audioTrack = try AudioTrack(configuration: .init(application: application))
        case .file, nil:
            break
        }
        if case .pattern(let width, let height, let framesPerSecond, let bitrate, let codec) = recipe.video {
            videoTrack = try VideoTrack(configuration: .init(codec: codec, bitrate: bitrate, framesPerSecond: framesPerSecond))
            square = try MovingSquare(width: width, height: height)
        }
    }

    /// What the bot publishes: the live tracks and the files. The files are opened off the
    /// cooperative pool (``FileOpening``); cancelling the task ends the wait with CancellationError.
    func botMedia(_ recipe: Recipe) async throws -> BotMedia {
        let playlist = try await FileOpening.run { try Self.playlist(recipe) }
        return BotMedia(audioTrack: audioTrack, videoTrack: videoTrack, playlist: playlist,
                        dataChannel: recipe.captions != nil || recipe.agent != nil || recipe.behaviours.contains { $0.send != nil })
    }

    /// The recipe's files as one playlist: audio and video lists pair entry by entry; a WebM in
    /// the video list brings its audio too unless the recipe has an audio source of its own.
    static func playlist(_ recipe: Recipe) throws -> FramePlaylist? {
        var audioFiles: [String]?
        var videoFiles: [String]?
        var loop = false
        if case .file(let list) = recipe.audio {
            audioFiles = list.playlist.map(recipe.resolve)
            loop = list.loop
        }
        if case .file(let list) = recipe.video {
            videoFiles = list.playlist.map(recipe.resolve)
            loop = list.loop
        }
        let count = max(audioFiles?.count ?? 0, videoFiles?.count ?? 0)
        guard count > 0 else { return nil }
        var entries: [[EncodedFrameSource]] = []
        for index in 0..<count {
            let audio = audioFiles?[index]
            let video = videoFiles?[index]
            if let video, recipe.audio != nil, audio == nil, PlayFiles.isWebM(video) {
                guard let track = try PlayFiles.openWebM(video, kinds: [.video]).video else {
                    throw CommandFailure(.usage, "cannot play \(video) as video: it has no VP8 or H.264 track")
                }
                entries.append([track])
            } else {
                entries.append(try PlayFiles.open(audio: audio, video: video))
            }
        }
        return FramePlaylist(entries: entries, loop: loop)
    }
}
