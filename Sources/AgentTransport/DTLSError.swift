/// Why DTLS setup or a DTLS handshake failed.
public enum DTLSError: Error, Equatable, Sendable {
    /// The peer's certificate digest is not the one its SDP `a=fingerprint` promised
    /// (RFC 8122 §5: the handshake must then fail). Both values are public, so logging is safe.
    case fingerprintMismatch(expected: DTLSFingerprint, actual: DTLSFingerprint)
    /// The peer presented no certificate (RFC 5763 §5 requires one from both sides).
    case missingPeerCertificate
    /// The handshake finished without a DTLS-SRTP profile both sides support (RFC 5764 §4.1.2).
    case noSRTPProfileNegotiated
    /// The negotiated DTLS-SRTP profile is not one we implement.
    case unsupportedSRTPProfile(id: UInt)
    /// The exporter did not produce the SRTP keying material.
    case keyExportFailed(String)
    /// OpenSSL failed the handshake; `reason` is its error queue as text.
    case handshakeFailed(reason: String)
    /// The peer sent a fatal alert or the record layer failed after the handshake.
    case protocolError(reason: String)
    /// The certificate or key could not be generated or loaded.
    case certificateFailed(reason: String)
    /// OpenSSL refused part of the context setup (method, profiles, MTU…).
    case setupFailed(reason: String)
    /// Application data was sent before the handshake finished, or after close/failure.
    case notConnected
    /// The application data does not fit one DTLS record within the MTU.
    case applicationDataTooLarge(maximum: Int, got: Int)
}

import COpenSSL

extension DTLSError {
    /// Empties this thread's OpenSSL error queue into one line, so one failure's errors do not
    /// leak into the next call's diagnosis (the queue is per thread and never cleared by itself).
    static func drainOpenSSLErrors() -> String {
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            ERR_error_string_n(code, &buffer, buffer.count)
            lines.append(String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return lines.isEmpty ? "no OpenSSL error recorded" : lines.joined(separator: "; ")
    }
}
