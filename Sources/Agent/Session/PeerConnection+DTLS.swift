import CNice

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

    /// Keeps one GLib timeout on the loop matching DTLS's retransmission deadline, if any.
    func armTimer() {
        cancelTimer()
        guard let dtls, let timeout = dtls.retransmissionTimeout else { return }
        let components = timeout.components
        let milliseconds = max(1, min(60_000, Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)))
        let source = g_timeout_source_new(guint(milliseconds))
        let target = Unmanaged.passRetained(WeakPeerConnection(self)).toOpaque()
        g_source_set_callback(
            source,
            { data in
                let target = Unmanaged<WeakPeerConnection>.fromOpaque(data!).takeUnretainedValue()
                target.connection?.timerFired()
                return 0  // G_SOURCE_REMOVE: timerFired arms a new one when needed
            },
            target,
            { data in Unmanaged<WeakPeerConnection>.fromOpaque(data!).release() })
        g_source_attach(source, loop.context)
        timer = source
    }

    func cancelTimer() {
        guard let timer else { return }
        g_source_destroy(timer)
        g_source_unref(timer)
        self.timer = nil
    }

    private func timerFired() {
        if let timer {
            g_source_unref(timer)
            self.timer = nil
        }
        guard let dtls else { return }
        process(dtls.handleTimeout())
    }
}

/// Lets C callbacks reach a PeerConnection without keeping it alive.
final class WeakPeerConnection {
    weak var connection: PeerConnection?
    init(_ connection: PeerConnection) { self.connection = connection }
}
