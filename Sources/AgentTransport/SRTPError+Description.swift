/// How an SRTP failure reads to a person.
extension SRTPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidKeyLength(let expected, let got): "key of \(got) bytes, expected \(expected)"
        case .invalidSaltLength(let expected, let got): "salt of \(got) bytes, expected \(expected)"
        case .invalidKeyingMaterialLength(let expected, let got): "keying material of \(got) bytes, expected \(expected)"
        case .packetTooShort(let minimum, let got): "packet of \(got) bytes, at least \(minimum) needed"
        case .wrongDirection: "the context protects the other direction"
        case .closed: "the context is closed"
        case .authenticationFailed: "authentication failed"
        case .replayed: "a replayed packet"
        case .replayTooOld: "a packet too old for the replay window"
        case .badParameter: "bad parameter"
        case .cipherFailed: "the cipher failed"
        case .keyExpired: "the key expired"
        case .libraryInitFailed: "libsrtp failed to initialize"
        case .library(let status, let name): "libsrtp error \(name) (\(status))"
        }
    }
}
