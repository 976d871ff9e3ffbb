import Agent
import Foundation

/// A TCP socket on 127.0.0.1 that listens and never answers: a Janus URL pointing here keeps a
/// job joining (the WebSocket handshake waits) until the job's connect timeout, so tests can hold
/// jobs in flight without a lab.
final class SilentListener: Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let (descriptor, port) = try LoopbackPort.bound(listening: 64)
        self.descriptor = descriptor
        self.port = UInt16(truncatingIfNeeded: port)
    }

    deinit { close(descriptor) }

    var url: String { "ws://127.0.0.1:\(port)/" }
}
