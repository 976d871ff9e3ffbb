import COpenSSL
import Foundation

/// A Janus core token (janus.jcfg `token_auth_secret`):
///
///     <expiry unix seconds>,janus,<plugin1>[,<plugin2>…]:<base64(HMAC-SHA1(secret, "<expiry>,janus,<plugins>"))>
///
/// Janus checks the signature and the expiry on every request, and refuses plugins not listed
/// (405). The token is a credential: never log its value.
public struct JanusToken: Sendable, Equatable, CustomStringConvertible {
    public let value: String
    public let expiry: Date?
    public let plugins: [String]

    /// Mints a signed token. For development and tests; production tokens come from the operator.
    /// An expiry before 1970 or past ``latestExpiry`` is clamped to that range.
    public static func mint(secret: String, plugins: [String], expiry: Date) -> JanusToken {
        let seconds = expiry.timeIntervalSince1970
        let expirySeconds = seconds.isNaN ? 0 : Int(min(max(seconds, 0), latestExpiry.timeIntervalSince1970))
        let payload = "\(expirySeconds),janus,\(plugins.joined(separator: ","))"
        let signature = hmacSHA1(key: Array(secret.utf8), message: Array(payload.utf8))
        let value = payload + ":" + Data(signature).base64EncodedString()
        return JanusToken(value: value, expiry: Date(timeIntervalSince1970: TimeInterval(expirySeconds)), plugins: plugins)
    }

    /// The latest expiry ``mint(secret:plugins:expiry:)`` writes: the year 9999, far beyond any
    /// real token and well inside what Janus's 64-bit seconds and our arithmetic hold.
    public static let latestExpiry = Date(timeIntervalSince1970: 253_402_300_799)

    /// Wraps a token string. A signed token's expiry and plugins are read from it; an opaque one
    /// (a stored token from Janus's admin API) has neither.
    public init(_ value: String) {
        self.value = value
        let payload = value.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let fields = payload.split(separator: ",").map(String.init)
        if value.contains(":"), fields.count >= 3, fields[1] == "janus", let seconds = Int(fields[0]) {
            expiry = Date(timeIntervalSince1970: TimeInterval(seconds))
            plugins = Array(fields[2...])
        } else {
            expiry = nil
            plugins = []
        }
    }

    private init(value: String, expiry: Date?, plugins: [String]) {
        self.value = value
        self.expiry = expiry
        self.plugins = plugins
    }

    /// Redacted, so a token never reaches a log by accident.
    public var description: String {
        "JanusToken(expiry: \(expiry.map { "\($0)" } ?? "none"), plugins: \(plugins))"
    }

    /// HMAC-SHA1 through OpenSSL's one-shot HMAC().
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(
                    EVP_sha1(), keyBytes.baseAddress, Int32(key.count),
                    messageBytes.bindMemory(to: UInt8.self).baseAddress, message.count, &digest, &length)
            }
        }
        return Array(digest.prefix(Int(length)))
    }
}
