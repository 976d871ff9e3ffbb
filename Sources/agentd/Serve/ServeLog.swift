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
            line = ([time, level.rawValue, Self.escaped(message)] + fields.map { "\(Self.escaped($0.key))=\(Self.quoted($0.value))" })
                .joined(separator: " ")
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

    /// A field value as the text format writes it: bare when it is one plain word, else in
    /// quotes with `\\`, `\"` and the control characters escaped.
    static func quoted(_ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy { $0 != " " && $0 != "\"" && $0 != "=" && !isControl($0) }
        guard value.isEmpty || !plain else { return value }
        return "\"" + escaped(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")) + "\""
    }

    /// `text` with C0, DEL and C1 control characters written as `\n`, `\r`, `\t` or `\u{XX}`, so
    /// a request path or header cannot start a forged line or move the terminal's cursor.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F), which includes NEL (U+0085).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
