import Agent
import Foundation
import Recorder

/// Builds the QA report of one recording directory from its manifest, its participants' WAVs
/// (speech) and their WebM/Matroska files (video frames, freezes, a thumbnail).
///
/// Everything it reads may be hostile (a directory someone hands `agentd report`): the manifest
/// is read within ``manifestLimit``, files are opened only when the manifest names them inside
/// the directory, media is streamed in bounded chunks for at most the recording's length, and
/// times are combined without overflow. What cannot be read becomes a note in the report, not
/// a failure: only a missing or unreadable manifest fails.
public struct RecordingReportBuilder: Sendable {
    public static let manifestLimit = 32 << 20
    /// Participants reported; a manifest naming more (a room holds far fewer) gets a note for
    /// the rest, so a hostile one cannot make the page and the work grow without bound.
    public static let maxParticipants = 1000
    /// Audio read past the recording's duration (a WAV a little longer than the manifest says).
    static let audioSlackMs: Int64 = 10_000

    public let directory: String
    public var thumbnailWidth = 160
    public var thumbnailHeight = 120

    public init(directory: String) {
        self.directory = directory
    }

    /// Reads manifest.json and builds the report.
    public func build() throws(RecordingReportError) -> ReportDocument {
        build(manifest: try readManifest())
    }

    /// The manifest in the directory, read within ``manifestLimit``.
    public func readManifest() throws(RecordingReportError) -> RecordingManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notADirectory(directory)
        }
        let path = file("manifest.json")
        guard FileManager.default.fileExists(atPath: path) else { throw .noManifest(directory) }
        let handle: FileHandle
        do throws(MediaFileError) { handle = try MediaFile.openHandle(path) } catch { throw .manifestUnreadable(path: path, reason: error.reason) }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: Self.manifestLimit + 1) ?? Data()
        } catch {
            throw .manifestUnreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard data.count <= Self.manifestLimit else { throw .manifestTooLarge(path: path, limit: Self.manifestLimit) }
        let manifest: RecordingManifest
        do { manifest = try RecordingManifest.decode(data) } catch { throw .badManifest(path: path, reason: Self.reason(error)) }
        guard manifest.version == RecordingManifest.currentVersion else {
            throw .badManifest(path: path, reason: "version \(manifest.version), this agentd reads \(RecordingManifest.currentVersion)")
        }
        return manifest
    }

    /// Builds the report of `manifest`, reading the media it names in the directory.
    public func build(manifest: RecordingManifest) -> ReportDocument {
        let durationMs = Self.duration(of: manifest)
        var thumbnails: [String: [UInt8]] = [:]
        var participants: [ParticipantReport] = []
        for participant in manifest.participants.prefix(Self.maxParticipants) {
            let (report, thumbnail) = self.participant(participant, durationMs: durationMs)
            participants.append(report)
            if let thumbnail { thumbnails[participant.name] = thumbnail }
        }
        let unreported = manifest.participants.count - participants.count
        let report = RecordingReport(
            room: manifest.room, state: manifest.state.rawValue, startedAt: RecordingManifest.formatDate(manifest.startedAt),
            endedAt: manifest.endedAt.map(RecordingManifest.formatDate), durationMs: durationMs, participants: participants,
            connectionGaps: Array(manifest.gaps.prefix(Self.maxParticipants)),
            notes: unreported > 0 ? ["\(unreported) more participants in the manifest are not reported"] : [])
        return ReportDocument(report: report, thumbnails: thumbnails)
    }

    private func participant(_ participant: RecordingManifest.Participant, durationMs: Int64) -> (ParticipantReport, [UInt8]?) {
        var notes: [String] = []
        let speech = self.speech(participant, durationMs: durationMs, notes: &notes)
        let video = self.video(participant, notes: &notes)
        var thumbnail: [UInt8]?
        if let picture = video?.thumbnail {
            do { thumbnail = try PNGEncoder.encode(picture) } catch { notes.append("thumbnail: \(error)") }
        }
        let (offset, sync) = AVOffset.estimate(participant.files)
        let presence = TimelineSpan(startMs: participant.joinedMs, endMs: participant.leftMs ?? durationMs)
        var report = ParticipantReport(
            id: participant.id, display: participant.display, name: participant.name, joinedMs: participant.joinedMs,
            leftMs: participant.leftMs, presentMs: presence.durationMs, speech: speech,
            stats: participant.stats, videoScan: video,
            avOffsetMs: offset, avSync: sync, notes: notes)
        if (video?.frames ?? 0) == 0 { report.useManifestVideoGaps(participant.gaps) }
        report.takeAudioGaps(participant.gaps)
        return (report, thumbnail)
    }

    /// The VAD over the participant's timeline WAVs (one, or one per part with `--segment`, each
    /// placed at its `start_ms`); nil (with a note) when there is none to read.
    private func speech(_ participant: RecordingManifest.Participant, durationMs: Int64, notes: inout [String]) -> SpeechScan? {
        let wavs = participant.files.filter { $0.format == "wav" }
        guard !wavs.isEmpty else {
            notes.append("no WAV recorded: speaking time unknown")
            return nil
        }
        var speech: SpeechScan?
        for wav in wavs {
            guard let path = inside(wav.path, notes: &notes) else { continue }
            // A part holds its own span of the timeline; a whole-recording WAV holds all of it.
            let span = TimelineSpan(startMs: wav.startMs, endMs: wav.endMs ?? durationMs).durationMs
            let (limit, overflow) = span.addingReportingOverflow(Self.audioSlackMs)
            do {
                let part = try SpeechScan(wavPath: path, maxMs: overflow ? .max : limit)
                speech = (speech ?? .silent).continued(by: part, atMs: wav.startMs)
            } catch {
                notes.append("\(wav.path): \(error)")
            }
        }
        return speech
    }

    /// Frames, freezes and a thumbnail from the files with a video track; nil when none has one.
    private func video(_ participant: RecordingManifest.Participant, notes: inout [String]) -> VideoScan? {
        let files = participant.files.filter { $0.format == "webm" && $0.tracks.contains { $0.kind == .video } }
        guard !files.isEmpty else { return nil }
        var scan = VideoScan(thumbnailWidth: thumbnailWidth, thumbnailHeight: thumbnailHeight)
        var read = 0
        for file in files {
            guard let path = inside(file.path, notes: &notes) else { continue }
            scan.scan(path: path, startMs: file.startMs)
            read += 1
        }
        notes += scan.problems
        return read > 0 ? scan : nil
    }

    /// The path of a file the manifest names, if it lies in the directory: relative, no `..`.
    private func inside(_ relative: String, notes: inout [String]) -> String? {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !components.contains("..") else {
            notes.append("\(relative): not a path inside the recording directory, not read")
            return nil
        }
        return file(relative)
    }

    private func file(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// The manifest's duration; else its start to end; else the latest time a participant names.
    static func duration(of manifest: RecordingManifest) -> Int64 {
        if let duration = manifest.durationMs { return max(0, duration) }
        if let ended = manifest.endedAt {
            let seconds = ended.timeIntervalSince(manifest.startedAt)
            if seconds.isFinite, seconds > 0 { return Int64(exactly: (min(seconds, 1e12) * 1000).rounded()) ?? 0 }
        }
        let latest = manifest.participants.flatMap { [$0.joinedMs, $0.leftMs ?? 0] }.max() ?? 0
        return max(0, latest)
    }

    private static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as NSError?, let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                return detail
            }
            return context.debugDescription
        case .keyNotFound(let key, let context): return "no key \(Self.path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(Self.path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "not valid JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}
