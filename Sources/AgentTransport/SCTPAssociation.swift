import CAgentShims
import CUsrSCTP
import Foundation

/// One SCTP association for WebRTC data channels (RFC 8831), over usrsctp's AF_CONN transport.
///
/// AF_CONN means usrsctp does no I/O of its own: every SCTP packet it wants to send is handed to
/// `onOutbound` (later: DTLS, RFC 8261), and every packet that DTLS decrypts is fed back with
/// ``handleInbound(_:)``. Both sides call ``connect()`` (the simultaneous open WebRTC uses, RFC 8831
/// §6.2) on port 5000 unless the SDP's `a=sctp-port` says otherwise.
///
/// Like the rest of a PeerConnection's transport, the association belongs to one ``EventLoop``:
/// call every method there (asserted) and handlers run there. usrsctp calls back from its own
/// threads and from inside its own calls; those callbacks only enqueue into an ``SCTPMailbox``,
/// and the loop delivers afterwards, so no handler ever runs inside usrsctp.
public final class SCTPAssociation: @unchecked Sendable {
    // @unchecked Sendable: mutable state (socket, state, buffers, handlers) is touched only on
    // `loop` (every entry point asserts it; usrsctp callbacks never touch it, they go through the
    // Mutex-protected mailbox). deinit may run elsewhere and only calls thread-safe usrsctp
    // functions plus the lock-protected registry.

    public static let webRTCPort: UInt16 = 5000

    public enum State: Sendable, Equatable {
        case new, connecting, connected, closed
    }

    public enum ClosedReason: Sendable, Equatable {
        /// The peer went away or aborted (SCTP_COMM_LOST).
        case communicationLost
        /// Graceful SHUTDOWN completed.
        case shutdownComplete
        /// INIT never got through (SCTP_CANT_STR_ASSOC).
        case cannotStart
    }

    public enum Event: Sendable, Equatable {
        case connected(outboundStreams: UInt16, inboundStreams: UInt16)
        case closed(ClosedReason)
        /// The peer reset these incoming streams: RFC 8831 §6.7, a data channel was closed.
        case incomingStreamsReset([UInt16])
        /// Our reset request for these outgoing streams was performed.
        case outgoingStreamsReset([UInt16])
    }

    /// How a message may be dropped (RFC 8831 §6.6, via PR-SCTP RFC 3758).
    public enum Reliability: Sendable, Equatable {
        case reliable
        case maxRetransmits(UInt32)
        case maxLifetime(milliseconds: UInt32)
    }

    public let loop: EventLoop
    public let localPort: UInt16
    public let remotePort: UInt16
    /// Largest SCTP packet handed to `onOutbound`; path MTU discovery is off (see ``connect()``).
    /// Values below ``minimumPacketSize`` are raised to it.
    public let maxPacketSize: UInt32
    /// RFC 4960 §7.3 assumes a path MTU of at least 512 bytes.
    public static let minimumPacketSize: UInt32 = 512
    public private(set) var state: State = .new

    private var socket: OpaquePointer?
    private let id: UInt
    private let mailbox: SCTPMailbox
    private var onOutbound: (([UInt8]) -> Void)?
    private var onEvent: ((Event) -> Void)?
    private var onMessage: ((_ bytes: [UInt8], _ streamID: UInt16, _ ppid: SCTPPayloadProtocol) -> Void)?
    /// Packets that arrived before our own connect(): an INIT delivered then would be refused.
    private var inboundBeforeConnect: [[UInt8]] = []
    private static let inboundBeforeConnectLimit = 64
    public private(set) var droppedBeforeConnect = 0
    /// Pieces of a message usrsctp delivered partially (no MSG_EOR yet), per stream.
    private var partialMessages: [UInt16: [UInt8]] = [:]
    private var isDraining = false

    /// Creates the socket, bound to `localPort` (call on the loop). Nothing is sent until
    /// ``connect()``.
    ///
    /// - Parameters:
    ///   - onOutbound: each SCTP packet to send to the peer (to DTLS), on the loop.
    ///   - onEvent: association state and stream resets, on the loop.
    ///   - onMessage: each complete message with its stream id and PPID, on the loop.
    public init(
        loop: EventLoop, localPort: UInt16 = webRTCPort, remotePort: UInt16 = webRTCPort,
        maxStreams: UInt16 = 1024, maxPacketSize: UInt32 = 1200,
        onOutbound: @escaping ([UInt8]) -> Void,
        onEvent: @escaping (Event) -> Void = { _ in },
        onMessage: @escaping (_ bytes: [UInt8], _ streamID: UInt16, _ ppid: SCTPPayloadProtocol) -> Void
    ) throws(SCTPError) {
        loop.assertInLoop()
        self.loop = loop
        self.localPort = localPort
        self.remotePort = remotePort
        self.maxPacketSize = max(maxPacketSize, Self.minimumPacketSize)
        self.onOutbound = onOutbound
        self.onEvent = onEvent
        self.onMessage = onMessage

        let weakSelf = WeakAssociation()
        mailbox = SCTPMailbox(loop: loop) { weakSelf.association?.drain() }
        id = SCTPStack.register(mailbox)
        weakSelf.association = self

        SCTPStack.acquire()
        usrsctp_register_address(addressPointer)
        guard
            let socket = usrsctp_socket(
                AF_CONN, Int32(SOCK_STREAM.rawValue), Int32(IPPROTO_SCTP), sctpReceive, nil, 0, addressPointer)
        else {
            let code = errno
            releaseStack()
            throw .socketFailed(errno: code)
        }
        self.socket = socket
        do throws(SCTPError) {
            try configure(socket, maxStreams: maxStreams)
            var local = conn(port: localPort)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    usrsctp_bind(socket, UnsafeMutablePointer(mutating: $0), socklen_t(MemoryLayout<sockaddr_conn>.size))
                }
            }
            guard bound == 0 else { throw .bindFailed(errno: errno) }
        } catch {
            usrsctp_close(socket)
            self.socket = nil
            releaseStack()
            throw error
        }
    }

    deinit {
        if let socket {
            usrsctp_close(socket)
            releaseStack()
        }
    }

    /// Starts the association: sends INIT, and lets packets that arrived earlier in.
    public func connect() throws(SCTPError) {
        loop.assertInLoop()
        guard let socket else { throw .closed }
        guard state == .new else { throw .alreadyConnecting }
        state = .connecting
        var remote = conn(port: remotePort)
        let result = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                usrsctp_connect(socket, UnsafeMutablePointer(mutating: $0), socklen_t(MemoryLayout<sockaddr_conn>.size))
            }
        }
        if result != 0 && errno != EINPROGRESS {
            let code = errno
            state = .new
            throw .connectFailed(errno: code)
        }
        try limitPacketSize(socket)
        let early = inboundBeforeConnect
        inboundBeforeConnect.removeAll()
        for packet in early {
            packet.withUnsafeBytes { usrsctp_conninput(addressPointer, $0.baseAddress, $0.count, 0) }
        }
        drain()
    }

    /// Feeds one SCTP packet received from the peer (decrypted DTLS application data).
    public func handleInbound(_ bytes: UnsafeRawBufferPointer) {
        loop.assertInLoop()
        guard socket != nil, bytes.count > 0 else { return }
        guard state != .new else {
            if inboundBeforeConnect.count < Self.inboundBeforeConnectLimit {
                inboundBeforeConnect.append(Array(bytes))
            } else {
                droppedBeforeConnect += 1
            }
            return
        }
        usrsctp_conninput(addressPointer, bytes.baseAddress, bytes.count, 0)
        drain()
    }

    public func handleInbound(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { handleInbound($0) }
    }

    /// Sends one message on `streamID` with `ppid`.
    public func send(
        _ bytes: [UInt8], streamID: UInt16, ppid: SCTPPayloadProtocol, ordered: Bool = true,
        reliability: Reliability = .reliable
    ) throws(SCTPError) {
        loop.assertInLoop()
        guard let socket else { throw .closed }
        guard state == .connected else { throw .notConnected }
        guard !bytes.isEmpty else { throw .emptyMessage }
        var info = sctp_sendv_spa()
        info.sendv_flags = UInt32(SCTP_SEND_SNDINFO_VALID)
        info.sendv_sndinfo.snd_sid = streamID
        info.sendv_sndinfo.snd_ppid = ppid.rawValue.bigEndian
        info.sendv_sndinfo.snd_flags = ordered ? 0 : UInt16(SCTP_UNORDERED)
        switch reliability {
        case .reliable:
            break
        case .maxRetransmits(let count):
            info.sendv_flags |= UInt32(SCTP_SEND_PRINFO_VALID)
            info.sendv_prinfo.pr_policy = UInt16(SCTP_PR_SCTP_RTX)
            info.sendv_prinfo.pr_value = count
        case .maxLifetime(let milliseconds):
            info.sendv_flags |= UInt32(SCTP_SEND_PRINFO_VALID)
            info.sendv_prinfo.pr_policy = UInt16(SCTP_PR_SCTP_TTL)
            info.sendv_prinfo.pr_value = milliseconds
        }
        let sent = bytes.withUnsafeBytes { buffer in
            usrsctp_sendv(
                socket, buffer.baseAddress, buffer.count, nil, 0, &info,
                socklen_t(MemoryLayout<sctp_sendv_spa>.size), UInt32(SCTP_SENDV_SPA), 0)
        }
        let code = errno
        drain()
        guard sent >= 0 else {
            throw code == EWOULDBLOCK || code == EAGAIN ? .wouldBlock : .sendFailed(errno: code)
        }
    }

    /// Resets our outgoing side of these streams, which is how a data channel is closed
    /// (RFC 8831 §6.7). The peer sees ``Event/incomingStreamsReset(_:)``.
    public func resetStreams(_ streamIDs: [UInt16]) throws(SCTPError) {
        loop.assertInLoop()
        guard let socket else { throw .closed }
        guard state == .connected else { throw .notConnected }
        guard !streamIDs.isEmpty else { return }
        // struct sctp_reset_streams ends in a flexible array of stream ids, which Swift does not
        // import, so the request is laid out by hand after the fixed fields.
        let listOffset = MemoryLayout<sctp_reset_streams>.size
        let size = listOffset + streamIDs.count * MemoryLayout<UInt16>.size
        var request = [UInt8](repeating: 0, count: size)
        let result = request.withUnsafeMutableBytes { buffer -> Int32 in
            var header = sctp_reset_streams()
            header.srs_assoc_id = sctp_assoc_t(SCTP_ALL_ASSOC)
            header.srs_flags = UInt16(SCTP_STREAM_RESET_OUTGOING)
            header.srs_number_streams = UInt16(streamIDs.count)
            buffer.storeBytes(of: header, as: sctp_reset_streams.self)
            for (index, streamID) in streamIDs.enumerated() {
                buffer.storeBytes(of: streamID, toByteOffset: listOffset + index * 2, as: UInt16.self)
            }
            return usrsctp_setsockopt(
                socket, Int32(IPPROTO_SCTP), SCTP_RESET_STREAMS, buffer.baseAddress, socklen_t(size))
        }
        let code = errno
        drain()
        guard result == 0 else { throw .resetFailed(errno: code) }
    }

    /// Aborts the association (the peer gets an ABORT and reports the loss), frees the socket and
    /// drops the handlers. Packets usrsctp produced up to here, including the ABORT, are still
    /// handed to `onOutbound`. Idempotent.
    public func close() {
        loop.assertInLoop()
        guard let socket else { return }
        usrsctp_close(socket)
        self.socket = nil
        state = .closed
        // Deliver what is queued (the ABORT) but no more messages or events.
        onEvent = nil
        onMessage = nil
        drain()
        onOutbound = nil
        inboundBeforeConnect.removeAll()
        partialMessages.removeAll()
        releaseStack()
    }

    /// Outgoing packets dropped because the queue to the loop was full (SCTP retransmits them).
    public var droppedOutboundPackets: Int { mailbox.drops.outboundPackets }
    /// Received messages dropped because the queue to the loop was full (lost).
    public var droppedInboundMessages: Int { mailbox.drops.inboundMessages }

    // MARK: Delivery on the loop

    fileprivate func drain() {
        loop.assertInLoop()
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while true {
            let (outbound, inbound) = mailbox.take()
            if outbound.isEmpty && inbound.isEmpty { return }
            for packet in outbound {
                onOutbound?(packet)
            }
            for item in inbound {
                switch item {
                case .data(let bytes, let streamID, let ppid, let endOfRecord):
                    deliver(bytes, streamID: streamID, ppid: ppid, endOfRecord: endOfRecord)
                case .notification(let bytes):
                    handleNotification(bytes)
                }
            }
        }
    }

    private func deliver(_ bytes: [UInt8], streamID: UInt16, ppid: UInt32, endOfRecord: Bool) {
        guard endOfRecord else {
            partialMessages[streamID, default: []].append(contentsOf: bytes)
            return
        }
        var message = bytes
        if let head = partialMessages.removeValue(forKey: streamID) {
            message = head + bytes
        }
        onMessage?(message, streamID, SCTPPayloadProtocol(rawValue: ppid))
    }

    private func handleNotification(_ bytes: [UInt8]) {
        let headerSize = 8  // sn_type(2) sn_flags(2) sn_length(4)
        guard bytes.count >= headerSize else { return }
        let type = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
        switch Int32(type) {
        case Int32(SCTP_ASSOC_CHANGE):
            guard bytes.count >= MemoryLayout<sctp_assoc_change>.size else { return }
            let change = bytes.withUnsafeBytes { $0.loadUnaligned(as: sctp_assoc_change.self) }
            handleAssociationChange(change)
        case Int32(SCTP_STREAM_RESET_EVENT):
            handleStreamReset(bytes)
        default:
            break
        }
    }

    private func handleAssociationChange(_ change: sctp_assoc_change) {
        switch Int32(change.sac_state) {
        case Int32(SCTP_COMM_UP), Int32(SCTP_RESTART):
            guard state == .connecting || state == .connected else { return }
            state = .connected
            onEvent?(.connected(outboundStreams: change.sac_outbound_streams, inboundStreams: change.sac_inbound_streams))
        case Int32(SCTP_COMM_LOST):
            finish(.communicationLost)
        case Int32(SCTP_SHUTDOWN_COMP):
            finish(.shutdownComplete)
        case Int32(SCTP_CANT_STR_ASSOC):
            finish(.cannotStart)
        default:
            break
        }
    }

    private func finish(_ reason: ClosedReason) {
        guard state != .closed else { return }
        state = .closed
        onEvent?(.closed(reason))
    }

    /// struct sctp_stream_reset_event: type(2) flags(2) length(4) assoc_id(4) then stream ids.
    private func handleStreamReset(_ bytes: [UInt8]) {
        let listOffset = MemoryLayout<sctp_stream_reset_event>.size
        guard bytes.count >= listOffset else { return }
        let (flags, length) = bytes.withUnsafeBytes {
            ($0.loadUnaligned(fromByteOffset: 2, as: UInt16.self), $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        }
        guard flags & UInt16(SCTP_STREAM_RESET_DENIED | SCTP_STREAM_RESET_FAILED) == 0 else { return }
        let end = min(bytes.count, Int(length))
        var streams: [UInt16] = []
        var offset = listOffset
        while offset + 2 <= end {
            streams.append(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) })
            offset += 2
        }
        if flags & UInt16(SCTP_STREAM_RESET_INCOMING_SSN) != 0 {
            onEvent?(.incomingStreamsReset(streams))
        }
        if flags & UInt16(SCTP_STREAM_RESET_OUTGOING_SSN) != 0 {
            onEvent?(.outgoingStreamsReset(streams))
        }
    }

    // MARK: Setup helpers

    /// The AF_CONN address: our registry id, not a pointer (see ``SCTPStack``).
    private var addressPointer: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: id)!
    }

    private func conn(port: UInt16) -> sockaddr_conn {
        var address = sockaddr_conn()
        address.sconn_family = UInt16(AF_CONN)
        address.sconn_port = port.bigEndian
        address.sconn_addr = addressPointer
        return address
    }

    /// Deregisters our address and drops our usrsctp reference, in the order usrsctp needs
    /// (deregister before the last finish, LAB.md).
    private func releaseStack() {
        usrsctp_deregister_address(addressPointer)
        SCTPStack.unregister(id)
        SCTPStack.release()
    }

    private func configure(_ socket: OpaquePointer, maxStreams: UInt16) throws(SCTPError) {
        guard usrsctp_set_non_blocking(socket, 1) == 0 else {
            throw .socketOptionFailed(option: "non-blocking", errno: errno)
        }
        // Linger 0: close() aborts at once instead of a SHUTDOWN handshake nobody waits for.
        let linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        try setOption(socket, level: SOL_SOCKET, SO_LINGER, "SO_LINGER", linger)

        // Data channels close by resetting streams (RFC 8831 §6.7).
        let reset = sctp_assoc_value(
            assoc_id: sctp_assoc_t(SCTP_ALL_ASSOC), assoc_value: UInt32(SCTP_ENABLE_RESET_STREAM_REQ))
        try setOption(socket, level: Int32(IPPROTO_SCTP), SCTP_ENABLE_STREAM_RESET, "SCTP_ENABLE_STREAM_RESET", reset)

        // Messages are sent when handed over; the app already batches (Nagle would add delay).
        let noDelay: Int32 = 1
        try setOption(socket, level: Int32(IPPROTO_SCTP), SCTP_NODELAY, "SCTP_NODELAY", noDelay)

        var initMessage = sctp_initmsg()
        initMessage.sinit_num_ostreams = maxStreams
        initMessage.sinit_max_instreams = maxStreams
        try setOption(socket, level: Int32(IPPROTO_SCTP), SCTP_INITMSG, "SCTP_INITMSG", initMessage)

        for eventType in [SCTP_ASSOC_CHANGE, SCTP_STREAM_RESET_EVENT, SCTP_SEND_FAILED_EVENT] {
            let event = sctp_event(se_assoc_id: sctp_assoc_t(SCTP_ALL_ASSOC), se_type: UInt16(eventType), se_on: 1)
            try setOption(socket, level: Int32(IPPROTO_SCTP), SCTP_EVENT, "SCTP_EVENT", event)
        }
    }

    /// SCTP cannot probe the path below DTLS, so the packet size is fixed: packets must fit one
    /// DTLS record in one UDP datagram (LAB.md: DTLS MTU 1200). The option needs the association
    /// that connect() just created. Measured with usrsctp 0.9.5: AF_CONN packets come out up to
    /// 12 bytes (the SCTP common header) larger than `spp_pathmtu`, so that much is taken off.
    private func limitPacketSize(_ socket: OpaquePointer) throws(SCTPError) {
        var parameters = sctp_paddrparams()
        let remote = conn(port: remotePort)
        withUnsafeBytes(of: remote) { source in
            withUnsafeMutableBytes(of: &parameters.spp_address) { $0.copyMemory(from: source) }
        }
        parameters.spp_assoc_id = 0
        parameters.spp_flags = UInt32(SPP_PMTUD_DISABLE)
        parameters.spp_pathmtu = maxPacketSize - UInt32(MemoryLayout<sctp_common_header>.size)
        try setOption(socket, level: Int32(IPPROTO_SCTP), SCTP_PEER_ADDR_PARAMS, "SCTP_PEER_ADDR_PARAMS", parameters)
    }

    private func setOption<T: BitwiseCopyable>(
        _ socket: OpaquePointer, level: Int32, _ option: Int32, _ name: String, _ value: T
    ) throws(SCTPError) {
        let result = withUnsafeBytes(of: value) {
            usrsctp_setsockopt(socket, level, option, $0.baseAddress, socklen_t($0.count))
        }
        guard result == 0 else { throw .socketOptionFailed(option: name, errno: errno) }
    }
}

/// Lets the mailbox's drain closure reach the association without keeping it alive.
private final class WeakAssociation: @unchecked Sendable {
    // @unchecked Sendable: written once in SCTPAssociation.init before the mailbox can schedule
    // anything; read only on the loop by the drain. Swift weak references load atomically.
    weak var association: SCTPAssociation?
}

/// usrsctp delivers messages and notifications here, possibly on its own threads and while
/// holding its locks: copy, free usrsctp's buffer (the receiver owns it), enqueue, return.
private func sctpReceive(
    _ socket: OpaquePointer?, _ address: sctp_sockstore, _ data: UnsafeMutableRawPointer?, _ length: Int,
    _ info: sctp_rcvinfo, _ flags: Int32, _ ulpInfo: UnsafeMutableRawPointer?
) -> Int32 {
    guard let data else { return 1 }  // NULL data: the socket is gone
    defer { free(data) }
    guard let mailbox = SCTPStack.mailbox(forAddress: ulpInfo) else { return 1 }
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: length))
    if flags & Int32(MSG_NOTIFICATION) != 0 {
        mailbox.enqueueInbound(.notification(bytes))
    } else {
        mailbox.enqueueInbound(
            .data(
                bytes: bytes, streamID: info.rcv_sid, ppid: UInt32(bigEndian: info.rcv_ppid),
                endOfRecord: flags & Int32(MSG_EOR) != 0))
    }
    return 1
}
