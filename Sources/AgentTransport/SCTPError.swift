/// Why an ``SCTPAssociation`` operation failed. `errno` values come from usrsctp.
public enum SCTPError: Error, Equatable, Sendable {
    case socketFailed(errno: Int32)
    case socketOptionFailed(option: String, errno: Int32)
    case bindFailed(errno: Int32)
    case connectFailed(errno: Int32)
    /// connect() was already called.
    case alreadyConnecting
    /// Sending needs an established association.
    case notConnected
    /// SCTP cannot carry empty messages: send one byte with an "empty" PPID instead (RFC 8831 §6.6).
    case emptyMessage
    /// The send buffer is full; try again when the peer has acknowledged data.
    case wouldBlock
    case sendFailed(errno: Int32)
    case resetFailed(errno: Int32)
    case closed
}
