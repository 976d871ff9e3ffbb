import Agent
import Foundation
import Synchronization

/// The daemon's structured log: one line per event on stderr, as text
/// (`2025-01-01T12:00:00.000Z info job started id=… kind=recording`) or as JSON lines
/// (`{"ts":…,"level":"info","msg":"job started","id":…}`).
///
/// Secrets never reach it on purpose (nobody logs a token, pin or Authorization header), and as
/// a second line of defence every secret it was told about (``redact(_:)``) is masked in every
/// line it writes.
final class ServeLog: Sendable {
    enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    enum Level: String, Sendable {
        case info, warn, error
    }

    let format: Format
    private let write: @Sendable (String) -> Void
    private let secrets = Mutex<Set<String>>([])
    static let mask = "[redacted]"

    init(format: Format, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.write = write
    }

    /// Masks `secret` in every later line. Strings shorter than 4 characters are left alone:
    /// masking them would garble ordinary words without protecting anything.
    func redact(_ secret: String?) {
        guard let secret, secret.count >= 4 else { return }
        secrets.withLock { _ = $0.insert(secret) }
    }

    func info(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.info, message, fields) }
    func warn(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.warn, message, fields) }
    func error(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.error, message, fields) }

    func log(_ level: Level, _ message: String, _ fields: KeyValuePairs<String, String>) {
        let time = JobRecord.timestamp(Date())
        // Masked before formatting: JSON escaping could otherwise hide a secret from the mask.
        let message = masked(message)
        let fields = fields.map { (key: $0.key, value: masked($0.value)) }
        let line: String
        switch format {
        case .json:
            var object: [String: JSONValue] = ["ts": .string(time), "level": .string(level.rawValue), "msg": .string(message)]
            for (key, value) in fields { object[key] = .string(value) }
            line = JSONValue.object(object).serialized()
        case .text:
            line = ([time, level.rawValue, message] + fields.map { "\($0.key)=\(Self.quoted($0.value))" }).joined(separator: " ")
        }
        write(line)
    }

    private func masked(_ text: String) -> String {
        let secrets = self.secrets.withLock { $0 }
        // Longest first, so a secret that contains another is masked whole.
        return secrets.sorted { $0.count > $1.count }.reduce(text) { text, secret in
            text.replacingOccurrences(of: secret, with: Self.mask)
        }
    }

    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) else { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }
}
