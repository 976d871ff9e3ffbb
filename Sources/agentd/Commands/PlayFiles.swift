import Agent
import BotKit
import Foundation

/// Opens `agentd play`'s files before anything joins, so a file that cannot be read or is not
/// supported exits 2 with the reason. What each kind of file becomes:
/// - `.opus` (Ogg/Opus), VP8 `.ivf` and H.264 `.h264`/`.264` (Annex B, played at 30 fps):
///   stored frames, sent as they are;
/// - `.webm`/`.mkv` (Opus + VP8 or H.264): stored frames of both tracks, in sync on the file's
///   timeline (H.264 blocks get start codes, and the SPS/PPS before each IDR); given as --video,
///   its audio plays too unless --audio names another file;
/// - `.wav`, `.flac`, `.ogg`/`.oga` (Vorbis): decoded by libsndfile, resampled to 48 kHz and
///   encoded to Opus.
///
/// Only regular files are played (``checkRegular(_:)``). These calls block while they read the
/// headers: async callers run them through ``FileOpening``.
enum PlayFiles {
    static func open(audio: String?, video: String?) throws -> [EncodedFrameSource] {
        if let video, isWebM(video) {
            let withAudio = audio == nil || audio == video
            let file = try openWebM(video, kinds: withAudio ? [.audio, .video] : [.video])
            guard file.video != nil else {
                throw CommandFailure(.usage, "cannot play \(video) as video: it has no VP8 or H.264 track", hint: "give it as --audio")
            }
            guard let audio, audio != video else { return file.sources }
            return [try openAudio(audio)] + file.sources
        }
        var sources: [EncodedFrameSource] = []
        if let audio { sources.append(try openAudio(audio)) }
        if let video { sources.append(try openVideo(video)) }
        return sources
    }

    static func isWebM(_ path: String) -> Bool {
        ["webm", "mkv"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Every file is checked first: a FIFO, a device (`/dev/zero`), a directory or a socket
    /// would block the open or never end, and is a usage error naming what it is.
    static func checkRegular(_ path: String) throws(CommandFailure) {
        do {
            try MediaFile.checkRegular(path)
        } catch {
            switch error {
            case .notRegularFile(_, let kind):
                throw CommandFailure(.usage, "cannot play \(path): it is \(kind), not a regular file",
                                     hint: "players read regular files only: a FIFO or a device would block or never end")
            case .cannotOpen(_, let reason):
                throw CommandFailure(.usage, "cannot read \(path): \(reason)", hint: "check the path")
            }
        }
    }

    static func openAudio(_ path: String) throws -> EncodedFrameSource {
        try checkRegular(path)
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        do {
            switch ext {
            case "opus": return try OggOpusSource(path: path)
            case "wav", "flac", "ogg", "oga": return try PCMFileSource(path: path)
            case "webm", "mkv":
                guard let audio = try openWebM(path, kinds: [.audio]).audio else {
                    throw CommandFailure(.usage, "cannot play \(path) as audio: it has no Opus track")
                }
                return audio
            default:
                throw CommandFailure(.usage, "cannot play \(path): .\(ext) audio is not supported", hint: "use .opus, .webm, .wav, .flac or .ogg")
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.usage, "cannot read \(path): \(error)", hint: "--audio takes Ogg/Opus, WebM, WAV, FLAC or Ogg Vorbis")
        }
    }

    static func openVideo(_ path: String) throws -> EncodedFrameSource {
        try checkRegular(path)
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard ["ivf", "h264", "264"].contains(ext) else {
            throw CommandFailure(.usage, "cannot play \(path): .\(ext) video is not supported",
                                 hint: "use a VP8 IVF, an H.264 Annex B stream (.h264) or a WebM/Matroska file (.webm, .mkv)")
        }
        do {
            return ext == "ivf" ? try IVFSource(path: path) : try H264FileSource(path: path)
        } catch {
            throw CommandFailure(.usage, "cannot read \(path): \(error)",
                                 hint: "--video takes a VP8 IVF, an H.264 Annex B stream (.h264, 30 fps) or a WebM/Matroska file")
        }
    }

    /// A WebM's tracks of `kinds` (recipes open a WebM video-only beside a live audio track).
    static func openWebM(_ path: String, kinds: Set<MediaKind>) throws -> WebMSource {
        try checkRegular(path)
        do {
            return try WebMSource(path: path, kinds: kinds)
        } catch {
            throw CommandFailure(.usage, "cannot read \(path): \(error)", hint: "WebM/Matroska files must hold Opus and/or VP8 or H.264")
        }
    }
}
