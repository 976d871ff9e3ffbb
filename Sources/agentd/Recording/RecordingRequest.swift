import Foundation
import Recorder

/// What one recording of one room needs, however it was asked for: `agentd record`'s flags
/// (``RecordPlan``) or a `POST /v1/recordings` body. Checked before anything joins a room.
struct RecordingRequest: Sendable {
    let server: String
    let room: String
    let display: String
    /// The Janus core token and the room pin: secrets, never logged or echoed back.
    let token: String?
    let pin: String?
    let create: Bool
    /// Seconds from ``startedAt``; nil records until stopped.
    let duration: Double?
    let formats: RecordingFormats
    let directory: RecordingDirectory
    /// The recording's t=0.
    let startedAt: Date
    /// True when the directory did not exist before, so a failed join may remove it.
    let directoryIsNew: Bool

    static let defaultDisplay = "agentd-recorder"

    init(server: String, room: String, display: String = defaultDisplay, token: String? = nil, pin: String? = nil,
         create: Bool = false, duration: Double? = nil, formats: RecordingFormats = .default,
         directory: RecordingDirectory, startedAt: Date) {
        self.server = server
        self.room = room
        self.display = display
        self.token = token
        self.pin = pin
        self.create = create
        self.duration = duration
        self.formats = formats
        self.directory = directory
        self.startedAt = startedAt
        directoryIsNew = !FileManager.default.fileExists(atPath: directory.path)
    }

    /// The directory must be writable before we join (exit 5 otherwise).
    func checkOutput() throws(CommandFailure) {
        do {
            try directory.checkWritable()
        } catch {
            throw CommandFailure(.outputFailed, "cannot write to \(directory.path): \(error)", hint: "choose another --out")
        }
    }

    /// After a failed join: a directory we created that holds only the manifest and empty files
    /// goes away, so a refused or unreachable room leaves no litter.
    func removeDirectoryIfUnused() {
        guard directoryIsNew else { return }
        let manager = FileManager.default
        let contents = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        let unused = contents.allSatisfy { name in
            let size = (try? manager.attributesOfItem(atPath: directory.filePath(name))[.size] as? Int) ?? 0
            return name == "manifest.json" || size == 0
        }
        guard unused else { return }
        try? manager.removeItem(atPath: directory.path)
    }
}
