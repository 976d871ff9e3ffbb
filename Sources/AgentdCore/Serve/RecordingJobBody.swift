import AgentCore
import Foundation
import Recorder

/// `POST /v1/recordings`'s body, checked and turned into a ``RecordingRequest`` with the
/// daemon's defaults. Every mistake is a 400 with a message naming the field.
package enum RecordingJobBody {
    package static let keys: Set<String> = [
        "server", "room", "token", "pin", "display", "formats", "duration", "out", "create", "max_duration", "max_bytes", "idle_timeout",
        "segment", "notice", "composite", "continue",
    ]

    /// - Parameter existing: what may be in the directory: nothing (`refuse`, an API request's
    ///   409 at once), or what a worker continuing a job's recording finds there.
    package static func request(_ body: JSONValue, settings: ServeSettings, startedAt: Date = Date(),
                                existing: RecordingDirectory.Existing = .refuse) throws(APIError) -> RecordingRequest {
        guard let object = body.objectValue else { throw .badRequest("the body must be a JSON object") }
        let unknown = object.keys.filter { !keys.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw .badRequest("unknown field(s) \(unknown.joined(separator: ", ")); known: \(keys.sorted().joined(separator: ", "))")
        }
        guard let serverText = try string(object, "server") ?? settings.defaultServer else {
            throw .badRequest("server is required (the config names no default server)")
        }
        guard let server = JanusURL.parse(serverText) else { throw .badRequest("server must be a ws:// or wss:// URL") }
        guard let room = try string(object, "room") else { throw .badRequest("room is required") }
        guard ChannelName.isValid(room) else { throw .badRequest("room must be a room name of \(ChannelName.ruleDescription)") }
        let duration = try self.duration(object["duration"])
        let limits = try self.limits(object)
        let segments = try self.segments(object["segment"])
        let notice = try self.notice(object["notice"])
        let create = try self.create(object["create"]) ?? false
        // `"continue": true` asks for what a worker's reclaimed job gets.
        let continues = try self.continues(object["continue"], out: object["out"])
        let directory = try self.directory(try string(object, "out"), room: room, root: settings.outputRoot, startedAt: startedAt,
                                           mustBeNew: existing == .refuse && !continues)
        let display = try self.display(object) ?? RecordingRequest.defaultDisplay
        let formats = try self.formats(object["formats"])
        if object["composite"].map({ $0 != .null }) == true, !formats.contains(.composite) {
            throw .badRequest("composite sets room.webm, which only formats with composite writes")
        }
        return RecordingRequest(
            server: server.absoluteString, room: room, display: display,
            credentials: RoomCredentials(token: try string(object, "token"), pin: try string(object, "pin")), create: create, duration: duration,
            limits: limits, segments: segments, notice: notice, formats: formats, directory: directory,
            existing: continues ? .continueRecording : existing, startedAt: startedAt,
            composite: try composite(object["composite"]))
    }

    /// `create`: true, false, or absent (nil).
    package static func create(_ value: JSONValue?) throws(APIError) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw .badRequest("create must be true or false")
        }
    }

    /// `continue`: true continues the recording in `out` (which it needs) as its next part, or
    /// starts one there when there is none (``RecordingDirectory/Existing/continueRecording``).
    package static func continues(_ value: JSONValue?, out: JSONValue?) throws(APIError) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: return false
        case .bool(true)?:
            guard let out, out != .null else { throw .badRequest("continue needs out: the directory of the recording to continue") }
            return true
        default: throw .badRequest("continue must be true or false")
        }
    }

    /// `display`, checked by the display-name rule; nil when absent.
    package static func display(_ object: [String: JSONValue]) throws(APIError) -> String? {
        guard let display = try string(object, "display") else { return nil }
        guard DisplayName.isValid(display) else { throw .badRequest("display must be \(DisplayName.ruleDescription)") }
        return display
    }

    /// A non-empty string of at most ``RecipeFields/maximumStringBytes`` bytes (the same bound
    /// as a recipe's strings: tokens, pins, paths, URLs all fit).
    package static func string(_ object: [String: JSONValue], _ key: String) throws(APIError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw .badRequest("\(key) must be a non-empty string") }
        guard text.utf8.count <= RecipeFields.maximumStringBytes else {
            throw .badRequest("\(key) must be at most \(RecipeFields.maximumStringBytes) bytes, got \(text.utf8.count)")
        }
        return text
    }

    package static func duration(_ value: JSONValue?) throws(APIError) -> Double? {
        guard let seconds = try number(value, "duration must be a number of seconds") else { return nil }
        guard JobDuration.isValid(seconds) else { throw .badRequest("duration must be \(JobDuration.rule)") }
        return seconds
    }

    /// A JSON number, integer or not; nil when absent or null; `refusal` for anything else.
    private static func number(_ value: JSONValue?, _ refusal: String) throws(APIError) -> Double? {
        switch value {
        case nil, .null?: nil
        case .integer(let number)?: Double(number)
        case .double(let number)?: number
        default: throw .badRequest(refusal)
        }
    }

    /// `max_duration` (seconds, as `duration`), `max_bytes` (an integer, or a string such as
    /// "800M") and `idle_timeout` (seconds; 0 turns it off; absent: the daemon's 60 s).
    package static func limits(_ object: [String: JSONValue]) throws(APIError) -> RecordingLimits {
        var limits = RecordingLimits(idleTimeout: RecordingLimits.daemonIdleTimeout)
        do {
            limits.maxDuration = try duration(object["max_duration"])
        } catch {
            throw .badRequest("max_duration must be \(JobDuration.rule)")
        }
        switch object["max_bytes"] {
        case nil, .null?: break
        case .integer(let bytes)? where bytes > 0 && bytes <= RecordingLimits.maximumBytes: limits.maxBytes = bytes
        case .string(let text)?:
            guard let bytes = RecordingLimits.bytes(parsing: text) else { throw .badRequest("max_bytes must be \(RecordingLimits.bytesRule)") }
            limits.maxBytes = bytes
        default: throw .badRequest("max_bytes must be \(RecordingLimits.bytesRule)")
        }
        let refusal = "idle_timeout must be \(RecordingLimits.idleTimeoutRule)"
        guard let idle = try number(object["idle_timeout"], refusal) else { return limits }
        guard RecordingLimits.isValidIdleTimeout(idle) else { throw .badRequest(refusal) }
        limits.idleTimeout = idle > 0 ? idle : nil
        return limits
    }

    /// `notice`: "data", "speech" or "both"; absent: the recorder stays unseen.
    package static func notice(_ value: JSONValue?) throws(APIError) -> RecordingNotice? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue, let notice = RecordingNotice(rawValue: text) else {
            throw .badRequest("notice must be \(RecordingNotice.rule)")
        }
        return notice
    }

    /// `segment`: seconds per part, 1 to 86400; absent: one file each.
    package static func segments(_ value: JSONValue?) throws(APIError) -> RecordingSegments? {
        let refusal = "segment must be \(RecordingSegments.rule)"
        guard let seconds = try number(value, refusal) else { return nil }
        guard let segments = RecordingSegments(seconds: seconds) else { throw .badRequest(refusal) }
        return segments
    }

    private static func formats(_ value: JSONValue?) throws(APIError) -> RecordingFormats {
        let text: String
        switch value {
        case nil, .null?: return .default
        case .string(let list)? where list.utf8.count <= 256: text = list
        case .string?: throw .badRequest("formats must be at most 256 bytes")
        case .array(let items)?:
            guard items.count <= RecordingFormats.Format.allCases.count else {
                throw .badRequest("formats must list at most \(RecordingFormats.Format.allCases.count) formats, got \(items.count)")
            }
            let names = items.compactMap(\.stringValue)
            guard names.count == items.count else { throw .badRequest("formats must be a list of strings") }
            text = names.joined(separator: ",")
        default: throw .badRequest("formats must be a list or a comma-separated string")
        }
        do {
            return try RecordingFormats(parsing: text)
        } catch {
            throw .badRequest("formats: \(error)")
        }
    }

    /// `out` is a new directory under the output root (API callers never write elsewhere, nor
    /// into a directory that exists): a relative path without `..`. Without `out`, the default
    /// `<room>-<UTC stamp>` gets `-2`, `-3`, … when a recording of the room started in the same
    /// second. The job claims the directory atomically when it is prepared
    /// (``RecordingDirectory/Existing/refuse``); the check here only answers early.
    package static func directory(_ out: String?, room: String, root: String, startedAt: Date, mustBeNew: Bool = true) throws(APIError) -> RecordingDirectory {
        let manager = FileManager.default
        guard let out else {
            let first = RecordingDirectory(room: room, startedAt: startedAt, base: root)
            var candidate = first
            var suffix = 1
            while manager.fileExists(atPath: candidate.path), suffix < 100 {
                suffix += 1
                candidate = RecordingDirectory(path: first.path + "-\(suffix)")
            }
            return candidate
        }
        let parts = out.split(separator: "/")
        guard !out.hasPrefix("/"), !parts.isEmpty, !parts.contains(".."), !parts.contains(".") else {
            throw .badRequest("out must be a relative directory under the output root, without . or ..")
        }
        let directory = RecordingDirectory(path: (root.hasSuffix("/") ? root : root + "/") + parts.joined(separator: "/"))
        if mustBeNew, manager.fileExists(atPath: directory.path) {
            let error: RecordingDirectoryError = directory.recordingFile().map { .holdsRecording(path: directory.path, file: $0) }
                ?? .alreadyExists(path: directory.path)
            throw outputError(error, out: out)
        }
        return directory
    }

    /// The API's answer when a job's directory cannot be had: 409 when it is taken (it exists,
    /// or holds a recording), 500 when the output root cannot be written.
    package static func outputError(_ error: RecordingDirectoryError, out: String?) -> APIError {
        let name = out.map { "out \($0)" } ?? "the recording's directory"
        switch error {
        case .alreadyExists:
            return APIError(status: 409, message: "\(name) already exists under the output root; a recording needs a new directory (choose another out)")
        case .holdsRecording(_, let file):
            return APIError(status: 409, message: "\(name) already holds a recording (\(file)) under the output root (choose another out)")
        case .cannotContinue(let reason):
            return APIError(status: 409, message: "\(name) cannot be continued: \(reason)")
        case .notWritable:
            return APIError(status: 500, message: "cannot write the recording under the output root: \(error)")
        }
    }
}
