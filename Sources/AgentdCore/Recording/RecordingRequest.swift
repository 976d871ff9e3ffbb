import AgentCore
import Foundation
import Recorder
import Synchronization

/// What one recording of one room needs, however it was asked for: `agentd record`'s flags
/// (``RecordPlan``) or a `POST /v1/recordings` body. Checked before anything joins a room.
package struct RecordingRequest: Sendable {
    /// Where and how to join (an audience's): the endpoint, the recorder's display, `create`.
    /// The ICE addresses are resolved later, by the job that joins.
    package let join: RoomJoin
    /// The Janus core token and the room pin: secrets, never logged or echoed back (every
    /// textual form of ``RoomCredentials`` is redacted, and it is not Codable).
    package let credentials: RoomCredentials
    /// Seconds from ``startedAt``; nil records until stopped.
    package let duration: Double?
    /// Caps and the idle timeout that end the recording early (``RecordingLimits``).
    package let limits: RecordingLimits
    /// `--segment`: every file cut into parts of this length; nil: one file each.
    package let segments: RecordingSegments?
    /// `--notice`: tell the room when recording starts and stops, from a participant under
    /// ``display`` that the recording ignores; nil: stay unseen.
    package let notice: RecordingNotice?
    package let formats: RecordingFormats
    /// room.webm's size, rate and layout (used when ``formats`` has composite).
    package let composite: CompositeSettings
    package let directory: RecordingDirectory
    /// The recording's t=0.
    package let startedAt: Date
    /// What may already be in ``directory``: the daemon makes a new one; `agentd record` refuses
    /// to write over a recording unless `--overwrite`. ``RecordingDirectory/Existing/continueRecording``
    /// (`--continue`, the API's `continue`, a worker running a reclaimed job) continues the
    /// recording in it as its next part (``RecordingContinuation``), or starts one where there is
    /// none. Setting it gives the request a fresh ``prepareOutput()``:
    ///
    ///     var request = try RecordingJobBody.request(body, settings: settings)
    ///     request.existing = .continueRecording
    ///     try request.prepareOutput()      // refuses (cannotContinue) a directory it cannot continue
    package var existing: RecordingDirectory.Existing {
        didSet { output = OutputClaim() }
    }
    /// What ``prepareOutput()`` created; shared by every copy of the request.
    private var output = OutputClaim()

    /// Whether the recording continues one in its directory (``existing`` is `continueRecording`).
    package var continues: Bool { existing == .continueRecording }

    /// Asked before each manifest and report write: a distributed job's lease (nil: always yes).
    package var writeGate: (@Sendable () -> Bool)?
    /// `duration` and `max_duration` count from the recording's t=0 (an earlier run's, when this
    /// one continues it) instead of this run's start: a worker taking a job over keeps its end.
    package var durationFromRecordingStart = false
    /// Also write capture.rtpdump and capture.json (`--capture`): what the receive path took in,
    /// for `agentd replay`.
    package var capture = false

    package static let defaultDisplay = "agentd-recorder"

    /// The signaling URL (``RoomJoin/server``), with its credentials if it has any: for the join only.
    package var server: String { join.server }
    /// The room recorded (``RoomJoin/room``).
    package var room: String { join.room ?? "" }
    package var display: String { join.display }
    package var create: Bool { join.create }

    /// ``server`` with its credentials masked: what the manifest, the job and summaries show.
    package var displayServer: String { JanusURL.redacted(server) }

    /// A recording of `room` on the Janus at `server`, as an unseen audience named `display`.
    package init(server: String, room: String, display: String = defaultDisplay, credentials: RoomCredentials = .none,
         create: Bool = false, duration: Double? = nil, limits: RecordingLimits = RecordingLimits(),
         segments: RecordingSegments? = nil, notice: RecordingNotice? = nil, formats: RecordingFormats = .default,
         directory: RecordingDirectory, existing: RecordingDirectory.Existing = .refuseRecording, startedAt: Date,
         composite: CompositeSettings = CompositeSettings()) {
        join = RoomJoin(endpoint: .janus(server: server, room: room), display: display, role: .audience, create: create)
        self.credentials = credentials
        self.duration = duration
        self.limits = limits
        self.segments = segments
        self.notice = notice
        self.formats = formats
        self.composite = composite
        self.directory = directory
        self.existing = existing
        self.startedAt = startedAt
    }

    /// Creates the directory under the ``existing`` rule and probes it with a write, once per
    /// request: later calls (the job's own, after the CLI's or the API's) do nothing. To continue
    /// a recording, the directory is first checked, reading only (another room's manifest, one
    /// that does not read, files without a manifest): such a directory is refused untouched with
    /// ``RecordingDirectoryError/cannotContinue(_:)``.
    package func prepareOutput() throws(RecordingDirectoryError) {
        let (directory, existing, room, startedAt) = (self.directory, self.existing, self.room, self.startedAt)
        try output.claim { () throws(RecordingDirectoryError) in
            if existing == .continueRecording {
                do throws(RecordingContinuationError) {
                    _ = try RecordingContinuation.load(directory: directory, room: room, startingAt: startedAt)
                } catch {
                    throw .cannotContinue(error)
                }
            }
            return try directory.prepare(existing: existing)
        }
    }

    /// After a failed join: the recording's files that hold nothing (the manifest, empty media
    /// files) go away, and so do the directories ``prepareOutput()`` created, so a refused or
    /// unreachable room leaves no litter. Files that are not a recording's, and directories that
    /// were there before, are never touched; nor is a directory a continued recording found
    /// (its earlier run's files are not this run's to remove: ``RoomRecorder/abandon(endedAt:)``
    /// undoes what the run wrote there).
    package func removeUnusedOutput() {
        guard let created = output.created, !(continues && created.isEmpty) else { return }
        let manager = FileManager.default
        let ours = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).filter(RecordingDirectory.isRecordingFile)
        let unused = ours.allSatisfy { name in
            let size = (try? manager.attributesOfItem(atPath: directory.filePath(name))[.size] as? Int) ?? 0
            return name == ManifestWriter.fileName || size == 0
        }
        guard unused else { return }
        for name in ours { try? manager.removeItem(atPath: directory.filePath(name)) }
        RecordingDirectory.removeCreated(created)
    }
}

/// The directories a request's ``RecordingRequest/prepareOutput()`` created; nil until it ran.
private final class OutputClaim: Sendable {
    private let state = Mutex<[String]?>(nil)

    var created: [String]? { state.withLock { $0 } }

    /// Runs `prepare` unless it succeeded before, and keeps what it created.
    func claim(_ prepare: () throws(RecordingDirectoryError) -> [String]) throws(RecordingDirectoryError) {
        try state.withLock { (created: inout [String]?) throws(RecordingDirectoryError) in
            guard created == nil else { return }
            created = try prepare()
        }
    }
}
