/// How a DTLS failure reads to a person.
extension DTLSError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .fingerprintMismatch(let expected, let actual): "the peer's certificate is \(actual), the SDP said \(expected)"
        case .missingPeerCertificate: "the peer sent no certificate"
        case .noSRTPProfileNegotiated: "no SRTP profile was negotiated"
        case .unsupportedSRTPProfile(let id): "SRTP profile \(id) is not supported"
        case .keyExportFailed(let reason): "exporting the SRTP keys failed: \(reason)"
        case .handshakeFailed(let reason): "the handshake failed: \(reason)"
        case .protocolError(let reason): "protocol error: \(reason)"
        case .certificateFailed(let reason): "the certificate failed: \(reason)"
        case .setupFailed(let reason): "setup failed: \(reason)"
        case .notConnected: "not connected"
        case .applicationDataTooLarge(let maximum, let got): "\(got) bytes of data, at most \(maximum) fit"
        }
    }
}
