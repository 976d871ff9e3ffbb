import AgentTransport

/// The DTLS side of a PeerConnection: moving handshake datagrams, the retransmission timer, and
/// what a finished handshake sets up (SRTP contexts, then SCTP when data was negotiated).
extension PeerConnection {
    /// Sends what DTLS produced and acts on its events, then re-arms the retransmission timer.
    func process(_ output: DTLSOutput) {
        if let ice {
            for datagram in output.datagrams {
                try? ice.send(datagram)
                counters.bytesOut += datagram.count
            }
        }
        for event in output.events {
            switch event {
            case .handshakeCompleted(let result):
                handshakeCompleted(result)
            case .failed(let error):
                fail(.dtls(error))
            case .applicationData(let bytes):
                sctp?.handleInbound(bytes)
            case .closedByPeer:
                setState(.failed("the peer closed DTLS"))
            }
        }
        armTimer()
    }

    private func handshakeCompleted(_ result: DTLSHandshakeResult) {
        do {
            let keys = try result.srtpKeys(role: dtlsRole)
            srtpOut = try SRTPContext(profile: keys.profile, direction: .outbound, masterKey: keys.localMasterKey, masterSalt: keys.localMasterSalt)
            srtpIn = try SRTPContext(profile: keys.profile, direction: .inbound, masterKey: keys.remoteMasterKey, masterSalt: keys.remoteMasterSalt)
        } catch {
            fail(.srtp(error))
            return
        }
        setState(.connected)
        if dataChannelLabel != nil { startSCTP() }
    }

    // MARK: Retransmission timer

    /// Keeps one timer on the loop matching DTLS's retransmission deadline, if any.
    func armTimer() {
        cancelTimer()
        guard let dtls, let timeout = dtls.retransmissionTimeout else { return }
        timer = loop.schedule(after: min(timeout, .seconds(60))) { [weak self] in self?.timerFired() }
    }

    func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func timerFired() {
        timer = nil
        guard let dtls else { return }
        process(dtls.handleTimeout())
    }
}
