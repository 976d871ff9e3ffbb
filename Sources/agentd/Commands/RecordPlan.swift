import Agent
import AgentdCore
import Foundation
import Recorder

/// Everything `agentd record` decided from its flags, checked before anything joins a room.
struct RecordPlan: Sendable {
    let recording: RecordingRequest
    let json: Bool
    /// The command line, for the ICE options (resolved by ``ice()`` when the job starts).
    private let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        guard let url = try arguments.serverURL() else { throw UsageError.missingRequired(option: "server") }
        guard let room = try arguments.roomName() else { throw UsageError.missingRequired(option: "room") }
        let duration = try arguments.seconds("duration")
        let limits = try Self.limits(arguments)
        let segments = try Self.segments(arguments)
        let notice = try Self.notice(arguments)
        let formats = try Self.formats(arguments)
        let composite = try Self.compositeSettings(arguments, formats: formats)
        let startedAt = Date()
        let out = arguments.value("out")
        if let out, out.isEmpty {
            throw UsageError.invalidValue(option: "out", value: out, expected: "a directory (it is empty)")
        }
        let existing = try Self.existing(arguments, out: out)
        var request = RecordingRequest(
            server: url.absoluteString, room: room, display: try arguments.displayName() ?? RecordingRequest.defaultDisplay,
            credentials: RoomCredentials(token: arguments.value("token"), pin: arguments.value("pin")), create: arguments.has("create"),
            duration: duration, limits: limits, segments: segments, notice: notice, formats: formats,
            directory: out.map { RecordingDirectory(path: $0) } ?? RecordingDirectory(room: room, startedAt: startedAt),
            existing: existing, startedAt: startedAt, composite: composite)
        request.capture = arguments.has("capture")
        recording = request
        json = arguments.has("json")
        self.arguments = arguments
    }

    /// `--formats` (agentd record's and agentd replay's), the default when absent.
    static func formats(_ arguments: ParsedArguments) throws -> RecordingFormats {
        guard let text = arguments.value("formats") else { return .default }
        do {
            return try RecordingFormats(parsing: text)
        } catch {
            throw UsageError.invalidValue(option: "formats", value: text, expected: "a list of webm,wav,ogg,mix,data,composite,transcript")
        }
    }

    static let captureOption = OptionSpec.flag(
        "capture",
        "Also write capture.rtpdump (every decrypted RTP packet and sender report as it arrived, in rtptools' dump format) "
            + "and capture.json (which SSRC and MID is whose, the participants' names): input for agentd replay.")

    static let continueOption = OptionSpec.flag(
        "continue",
        "Continue the recording in --out (needed) as its next part, when its recorder died (kill -9, a lost worker): "
            + "t=0 stays its started_at, every file is a new part (<name>.part2.webm, <name>.part2.wav from this run's start, "
            + "mix.part2.wav, data.part2.jsonl, ...), someone back with the same Janus id keeps their name and entry, and "
            + "manifest.json (one, merged) lists the gap with reason \"continued\". A missing or empty --out starts a new "
            + "recording. Another room's manifest, one that cannot be read, or files without a manifest are refused "
            + "untouched (exit 5). One agentd at a time per directory.")

    /// `--overwrite`, `--continue` or neither: what may be in `--out`.
    static func existing(_ arguments: ParsedArguments, out: String?) throws -> RecordingDirectory.Existing {
        guard arguments.has("continue") else { return arguments.has("overwrite") ? .overwrite : .refuseRecording }
        guard out != nil else { throw UsageError.needs(option: "continue", other: "out", why: "it names the recording to continue") }
        if arguments.has("overwrite") {
            throw UsageError.conflicting(option: "continue", with: "overwrite", why: "continuing never replaces a file")
        }
        return .continueRecording
    }

    /// `--max-duration`, `--max-bytes`, `--idle-timeout` (``RecordingLimits``).
    static let limitOptions: [OptionSpec] = [
        .value("max-duration", "SEC", "End the recording after SEC seconds with stopped_by \"limit\" (a cap; --duration is the plan)."),
        .value("max-bytes", "N", "End the recording with stopped_by \"limit\" once its files hold N bytes (K, M, G, T: powers of 1024; "
            + "measured about once a second, so up to a second more may be written)."),
        .value("idle-timeout", "SEC", "End the recording with stopped_by \"idle\" when no one has published for SEC seconds "
            + "(from the start in an empty room, else from the last publisher's leave; paused while agentd reconnects). "
            + "0 or absent: never (the daemon's default is 60)."),
    ]

    static let segmentOption = OptionSpec.value(
        "segment", "SEC",
        "Cut every file into numbered parts of SEC seconds (<name>.webm, <name>.part2.webm, ...; WAVs exactly, WebMs at the "
            + "first video keyframe past each cut, which agentd asks the sender for), each playable on its own and listed in "
            + "manifest.json with start_ms and end_ms. 1 to 86400.")

    static let noticeOption = OptionSpec.value(
        "notice", "KIND",
        "Tell the room that recording started and stopped, from a participant named by --display (the recording "
            + "ignores it; without --notice agentd stays unseen): data sends {\"type\":\"recorder\",\"active\":true|false,...} "
            + "(repeated every 2 s while recording, so latecomers hear it), speech says \"Recording started.\" and "
            + "\"Recording stopped.\" (espeak-ng), both does both.")

    static func notice(_ arguments: ParsedArguments) throws -> RecordingNotice? {
        guard let text = arguments.value("notice") else { return nil }
        guard let notice = RecordingNotice(rawValue: text.lowercased()) else {
            throw UsageError.invalidValue(option: "notice", value: text, expected: RecordingNotice.rule)
        }
        return notice
    }

    static func segments(_ arguments: ParsedArguments) throws -> RecordingSegments? {
        guard let text = arguments.value("segment") else { return nil }
        guard let seconds = Double(text), let segments = RecordingSegments(seconds: seconds) else {
            throw UsageError.invalidValue(option: "segment", value: text, expected: RecordingSegments.rule)
        }
        return segments
    }

    static func limits(_ arguments: ParsedArguments) throws -> RecordingLimits {
        var limits = RecordingLimits(maxDuration: try arguments.seconds("max-duration"))
        if let text = arguments.value("max-bytes") {
            guard let bytes = RecordingLimits.bytes(parsing: text) else {
                throw UsageError.invalidValue(option: "max-bytes", value: text, expected: RecordingLimits.bytesRule)
            }
            limits.maxBytes = bytes
        }
        if let text = arguments.value("idle-timeout") {
            guard let seconds = Double(text), RecordingLimits.isValidIdleTimeout(seconds) else {
                throw UsageError.invalidValue(option: "idle-timeout", value: text, expected: RecordingLimits.idleTimeoutRule)
            }
            limits.idleTimeout = seconds > 0 ? seconds : nil
        }
        return limits
    }

    /// The ICE settings: the allow-list resolved to addresses, the servers, credentials, policy.
    func ice() throws -> RoomJoinPatch {
        try SharedOptions.ice(arguments)
    }
}
