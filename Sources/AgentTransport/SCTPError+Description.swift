import Foundation

/// How an SCTP (data channel transport) failure reads to a person.
extension SCTPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .socketFailed(let code): "cannot create the SCTP socket: \(Self.text(code))"
        case .socketOptionFailed(let option, let code): "setting \(option) failed: \(Self.text(code))"
        case .bindFailed(let code): "bind failed: \(Self.text(code))"
        case .connectFailed(let code): "connect failed: \(Self.text(code))"
        case .alreadyConnecting: "already connecting"
        case .notConnected: "not connected"
        case .emptyMessage: "an empty message cannot be sent"
        case .wouldBlock: "the send buffer is full"
        case .sendFailed(let code): "send failed: \(Self.text(code))"
        case .resetFailed(let code): "stream reset failed: \(Self.text(code))"
        case .closed: "the association is closed"
        }
    }

    private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
