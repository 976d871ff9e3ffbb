import Agent
import Foundation

/// A recording continued in its own directory as its next part: after its recorder died (kill -9,
/// a worker that lost its lease), a new recorder (`agentd record --continue`, a worker running a
/// reclaimed job) goes on where it was, in the same files' next parts, under the same manifest.
///
///     t=0 (earlier started_at)        earlierEndMs     originMs (this run's start)
///     |──── earlier run: alice.webm ────|···· gap ····|──── this run: alice.part2.webm ────▶
///                                        "continued"
///
/// - **One timeline.** t=0 stays the earlier manifest's `started_at`; this run starts at
///   ``originMs`` on it, so every new file's `start_ms` and every `t_ms` line up with the earlier
///   ones. WAV parts start at their own `start_ms`, as `--segment` parts do.
/// - **Nothing written before is touched.** Every file this run writes is a new part
///   (``RecordingPartNumbers``: above every part on disk or in the manifest, as a killed recorder
///   may have made a file its last manifest refresh did not list).
/// - **One manifest.** The earlier participants and files stay; someone present in both runs
///   (the same Janus id) is one participant whose `files` get the new parts; the earlier names
///   stay theirs (``NameAllocator/reserve(_:)``). The top-level `gaps` get one gap with reason
///   `continued` from ``earlierEndMs`` to ``originMs`` (``RecordingManifest/continued(after:)``).
public struct RecordingContinuation: Sendable, Equatable {
    /// The manifest as the earlier run left it, and its bytes (put back when this run is
    /// abandoned before it recorded anything: ``RoomRecorder/abandon()``).
    public let earlier: RecordingManifest
    public let earlierBytes: [UInt8]
    /// Where the earlier run ended, as best known, at most ``originMs``: where the `continued`
    /// gap starts. The latest time its manifest knew of (``RecordingManifest/lastKnownMs``), or
    /// where its WAVs end when they got further: a killed recorder wrote up to its death, up to a
    /// refresh interval past its last manifest.
    public let earlierEndMs: Int64
    /// Where this run starts on the recording's timeline (ms from the earlier `started_at`).
    public let originMs: Int64
    public let partNumbers: RecordingPartNumbers

    /// The recording's t=0.
    public var startedAt: Date { earlier.startedAt }

    /// - Parameter filesEndMs: where the earlier WAVs end on the timeline (``wavEndMs(of:in:)``).
    public init(earlier: RecordingManifest, earlierBytes: [UInt8] = [], originMs: Int64, partNumbers: RecordingPartNumbers,
                filesEndMs: Int64 = 0) {
        self.earlier = earlier
        self.earlierBytes = earlierBytes
        self.originMs = originMs
        self.partNumbers = partNumbers
        earlierEndMs = min(max(0, earlier.lastKnownMs, filesEndMs), originMs)
    }

    /// How to continue the recording of `room` in `directory`, starting at `start`; nil when
    /// the directory is missing or empty (then a new recording starts there). Only reads: when
    /// it throws, nothing in the directory was touched. Hidden files (a dead recorder's space
    /// reserve or half-written temporary) do not count as files.
    ///
    /// - Throws: ``RecordingContinuationError``: a manifest that cannot be read or is another
    ///   room's, files without a manifest, a `started_at` after `start`.
    public static func load(directory: RecordingDirectory, room: String,
                            startingAt start: Date) throws(RecordingContinuationError) -> RecordingContinuation? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil  // a new recording; a path that is not a directory fails when it is prepared
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .manifest(path: directory.path, .unreadable(reason: RecordingManifestReader.oneLine(error)))
        }
        let visible = entries.filter { !$0.hasPrefix(".") }.sorted()
        guard visible.contains(ManifestWriter.fileName) else {
            if let file = visible.first { throw .noManifest(path: directory.path, file: file) }
            return nil
        }
        let (manifest, bytes): (RecordingManifest, [UInt8])
        do {
            (manifest, bytes) = try RecordingManifestReader.read(directory: directory.path)
        } catch {
            throw .manifest(path: directory.path, error)
        }
        guard manifest.room == room else { throw .otherRoom(path: directory.path, room: manifest.room, expected: room) }
        guard let originMs = timelinePosition(of: start, from: manifest.startedAt) else {
            throw .timelineOutOfRange(path: directory.path, startedAt: RecordingManifest.formatDate(manifest.startedAt))
        }
        let named = manifest.files.map(\.path) + manifest.participants.flatMap { $0.files.map(\.path) }
        return RecordingContinuation(earlier: manifest, earlierBytes: bytes, originMs: originMs,
                                     partNumbers: RecordingPartNumbers(fileNames: entries + named),
                                     filesEndMs: wavEndMs(of: manifest, in: directory))
    }

    /// WAV files read for their length: enough for any room, bounded for a hostile manifest.
    static let maximumWAVsRead = 1024

    /// Where the WAVs `manifest` lists (participants' and the mix, in `directory` itself, regular
    /// files only) end on the timeline: their `start_ms` plus the samples their headers count.
    static func wavEndMs(of manifest: RecordingManifest, in directory: RecordingDirectory) -> Int64 {
        let files = manifest.files + manifest.participants.flatMap(\.files)
        var latest: Int64 = 0
        for file in files.filter({ $0.format == "wav" || $0.format == "mix" }).prefix(maximumWAVsRead) {
            let path = directory.filePath(file.path)
            var status = stat()
            // A plain name of a regular file: no path out of the directory, no FIFO to block on.
            guard !file.path.isEmpty, !file.path.contains("/"), !file.path.hasPrefix("."),
                  lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  let reader = try? SoundFileReader(path: path)
            else { continue }
            let (frames, rate) = (reader.info.frames, reader.info.sampleRate)
            reader.close()
            guard rate == TimelineWAVWriter.sampleRate, frames >= 0 else { continue }
            latest = max(latest, RecordingManifest.sum(file.startMs, frames / 48))
        }
        return latest
    }

    /// `start` in ms from `startedAt`; nil before it or beyond what a WAV position can hold.
    static func timelinePosition(of start: Date, from startedAt: Date) -> Int64? {
        let seconds = start.timeIntervalSince(startedAt)
        let limit = Double(TimelineWAVWriter.validPositions.upperBound / 48) / 1000
        guard seconds.isFinite, seconds >= 0, seconds < limit else { return nil }
        return Int64((seconds * 1000).rounded())
    }

    /// The manifest of the whole recording: the earlier one continued by `current` (this run's).
    public func merged(_ current: RecordingManifest) -> RecordingManifest {
        current.continued(after: self)
    }
}
