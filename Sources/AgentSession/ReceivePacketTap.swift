import AgentCore
import AgentWire

/// Sees what a ``SubscriptionRouter`` takes in, as it takes it: every decrypted RTP packet, each
/// sender report, and the routes of each negotiation (``PacketCapture`` writes them down for
/// `agentd replay`). Called on the router's loop, once per packet: it must not block.
public protocol ReceivePacketTap: AnyObject, Sendable {
    func received(rtp packet: UnsafeRawBufferPointer, at arrival: MediaInstant)
    func received(senderReport: SenderReport, at arrival: MediaInstant)
    func routed(_ routes: [SubscriptionRouter.Route], at time: MediaInstant)
}
