import AgentCore
import AgentTransport

/// Data channels over SCTP over DTLS (RFC 8261, RFC 8831): SCTP packets ride in DTLS
/// application data, and DCEP opens the channels.
extension PeerConnection {
    func startSCTP() {
        guard sctp == nil else { return }
        let registry = DataChannelRegistry(isDTLSClient: dtlsRole == .client)
        dataChannels = registry
        do {
            let association = try SCTPAssociation(
                loop: loop,
                onOutbound: { [weak self] packet in self?.sendSCTPPacket(packet) },
                onEvent: { [weak self] event in self?.handleSCTPEvent(event) },
                onMessage: { [weak self] bytes, streamID, ppid in self?.handleSCTPMessage(bytes, streamID: streamID, ppid: ppid) })
            sctp = association
            try association.connect()
        } catch {
            // Media still flows without data; report and carry on.
            handlers.onDataChannel(.malformed(streamID: 0, .truncated(needed: 0, got: 0)))
            sctp = nil
            _ = error
        }
    }

    private func sendSCTPPacket(_ packet: [UInt8]) {
        guard let dtls, let ice else { return }
        do {
            for datagram in try dtls.send(packet) {
                try? ice.send(datagram)
                counters.bytesOut += datagram.count
            }
        } catch {
            // DTLS not connected or the packet does not fit: SCTP retransmits or gives up.
        }
    }

    private func handleSCTPEvent(_ event: SCTPAssociation.Event) {
        if case .closed(.communicationLost) = event, sctp != nil {
            handlers.onDataTransportLost()
            return
        }
        guard case .connected = event, let label = dataChannelLabel, dataChannelStreamID == nil else { return }
        do {
            guard var registry = dataChannels else { return }
            let (streamID, open) = try registry.open(label: label)
            dataChannels = registry
            dataChannelStreamID = streamID
            try sctp?.send(open.bytes, streamID: open.streamID, ppid: open.ppid)
        } catch {
            handlers.onDataChannel(.malformed(streamID: 0, .truncated(needed: 0, got: 0)))
        }
    }

    private func handleSCTPMessage(_ bytes: [UInt8], streamID: UInt16, ppid: SCTPPayloadProtocol) {
        guard var registry = dataChannels else { return }
        let (outgoing, events) = registry.receive(bytes, streamID: streamID, ppid: ppid)
        dataChannels = registry
        for message in outgoing {
            try? sctp?.send(message.bytes, streamID: message.streamID, ppid: message.ppid)
        }
        for event in events { handlers.onDataChannel(event) }
    }

    /// Acts as if the SCTP association had died (``Handlers/onDataTransportLost``): for tests of
    /// what depends on it. Call on the loop.
    func simulateDataTransportLoss() {
        handleSCTPEvent(.closed(.communicationLost))
    }

    /// Sends a message on our data channel. Call on the loop.
    public func sendData(_ payload: DataChannelMessage.Payload) throws(PeerConnectionError) {
        loop.assertInLoop()
        guard let sctp, let registry = dataChannels, let streamID = dataChannelStreamID else { throw .notConnected }
        do {
            let message = try registry.send(payload, streamID: streamID)
            try sctp.send(message.bytes, streamID: message.streamID, ppid: message.ppid)
        } catch let error as DataChannelRegistry.Error {
            throw .dataChannel(error)
        } catch let error as SCTPError {
            throw .sctp(error)
        } catch {
            throw .notConnected
        }
    }
}
