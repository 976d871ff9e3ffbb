import Agent
import Foundation
import Recorder

/// Everything `agentd record` decided from its flags, checked before anything joins a room.
struct RecordPlan: Sendable {
    let server: String
    let room: String
    let display: String
    let token: String?
    let pin: String?
    let create: Bool
    let json: Bool
    let duration: Double?
    let formats: RecordingFormats
    let directory: RecordingDirectory
    let startedAt: Date
    let iceAllow: String?
    /// True when the directory did not exist before we were run, so a failed join may remove it.
    let directoryIsNew: Bool

    init(_ arguments: ParsedArguments) throws {
        guard let url = try arguments.serverURL() else { throw UsageError.missingRequired(option: "server") }
        guard let room = try arguments.roomName() else { throw UsageError.missingRequired(option: "room") }
        server = url.absoluteString
        self.room = room
        display = arguments.value("display") ?? "agentd-recorder"
        token = arguments.value("token")
        pin = arguments.value("pin")
        create = arguments.has("create")
        json = arguments.has("json")
        duration = try arguments.seconds("duration")
        if let text = arguments.value("formats") {
            do {
                formats = try RecordingFormats(parsing: text)
            } catch {
                throw UsageError.invalidValue(option: "formats", value: text, expected: "a list of webm,wav,ogg,mix,data")
            }
        } else {
            formats = .default
        }
        startedAt = Date()
        directory = arguments.value("out").map { RecordingDirectory(path: $0) } ?? RecordingDirectory(room: room, startedAt: startedAt)
        directoryIsNew = !FileManager.default.fileExists(atPath: directory.path)
        iceAllow = arguments.value("ice-allow")
    }

    /// `--out` must be writable before we join (exit 5 otherwise).
    func checkOutput() throws {
        do {
            try directory.checkWritable()
        } catch {
            throw CommandFailure(.outputFailed, "cannot write to \(directory.path): \(error)", hint: "choose another --out")
        }
    }

    func iceAddresses() throws -> [String] {
        try SharedOptions.iceAddresses(iceAllow)
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
