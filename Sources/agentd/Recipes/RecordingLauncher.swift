/// What the recorder recipe asks of the recording job: `agentd record`'s settings.
struct RecordingRequest: Sendable, Equatable {
    var server: String
    var room: String
    var token: String?
    var pin: String?
    var display: String
    var create: Bool
    var iceAddresses: [String]
    /// As `agentd record --formats` (webm, wav, ogg, mix, data).
    var formats: [String]
    /// As `agentd record --out`; nil for the default `./recordings/<room>-<UTC>/`.
    var out: String?
    /// Informational: `stop` already returns when it has passed.
    var duration: Double?
}

/// The seam between recipes and the recording job (which lives beside `agentd record`): records
/// `request` until `stop` returns, finalizes the files and returns a one-line summary. It throws
/// ``CommandFailure`` like `agentd record` (3 refused, 4 connection, 5 output).
typealias RecordingLauncher = @Sendable (_ request: RecordingRequest, _ stop: @escaping @Sendable () async -> Void) async throws -> String
