/// One `m=` section with its lines (RFC 8866 §5.14).
///
///     m=<media> <port> <proto> <fmt> ...
///     m=audio 9 UDP/TLS/RTP/SAVPF 111
///     m=application 9 UDP/DTLS/SCTP webrtc-datachannel
public struct MediaDescription: Equatable, Sendable, SDPAttributeHolder {
    public var kind: String
    public var port: Int
    public var proto: String
    public var formats: [String]
    /// `c=` and `b=` and other non-attribute lines, kept in order as (type, value).
    public var lines: [SDPLine]
    public var attributes: [SDPAttribute]

    public init(kind: String, port: Int, proto: String, formats: [String], lines: [SDPLine] = [], attributes: [SDPAttribute] = []) {
        self.kind = kind
        self.port = port
        self.proto = proto
        self.formats = formats
        self.lines = lines
        self.attributes = attributes
    }

    public var mid: String? { attribute("mid") }

    /// `sendrecv`, `sendonly`, `recvonly` or `inactive` (default sendrecv, RFC 8866 §6.7).
    public var direction: String {
        for name in ["sendrecv", "sendonly", "recvonly", "inactive"] where hasAttribute(name) { return name }
        return "sendrecv"
    }

    /// A port of 0 marks a rejected or removed section (RFC 8843 §7.3).
    public var isRejected: Bool { port == 0 }

    /// `a=rtpmap:<pt> <name>/<clock>[/<channels>]` for each payload type.
    public var rtpMaps: [RTPMap] {
        attributes(named: "rtpmap").compactMap(RTPMap.init(attribute:))
    }

    /// `a=fmtp:<pt> <params>` for one payload type.
    public func formatParameters(payloadType: UInt8) -> String? {
        let prefix = "\(payloadType) "
        return attributes(named: "fmtp").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// `a=extmap:<id>[/<direction>] <uri>` as uri → id (RFC 8285 §8: ids 1-255; 0 is padding).
    /// A malformed line (`a=extmap:/ …`, no uri, an id out of range) is skipped.
    public var headerExtensions: [String: UInt8] {
        var map: [String: UInt8] = [:]
        for value in attributes(named: "extmap") {
            let parts = value.split(separator: " ")
            guard parts.count >= 2, let id = SDPNumber.decimal(parts[0].prefix { $0 != "/" }).flatMap(UInt8.init(exactly:)), id > 0 else {
                continue
            }
            map[String(parts[1])] = id
        }
        return map
    }

    /// SSRCs announced with `a=ssrc:<ssrc> …`, in order, without repeats.
    public var ssrcs: [UInt32] {
        var seen: [UInt32] = []
        for value in attributes(named: "ssrc") {
            guard let ssrc = value.split(separator: " ").first.flatMap({ UInt32($0) }), !seen.contains(ssrc) else { continue }
            seen.append(ssrc)
        }
        return seen
    }
}

/// `a=rtpmap` (RFC 8866 §6.6).
public struct RTPMap: Equatable, Sendable {
    public var payloadType: UInt8
    public var encodingName: String
    public var clockRate: Int
    public var channels: Int?

    public init(payloadType: UInt8, encodingName: String, clockRate: Int, channels: Int? = nil) {
        self.payloadType = payloadType
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }

    init?(attribute value: String) {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let payloadType = SDPNumber.decimal(parts[0]).flatMap(UInt8.init(exactly:)), payloadType < 128 else {
            return nil
        }
        let encoding = parts[1].split(separator: "/")
        // The clock feeds timestamp arithmetic, so it is held to what RTP uses (SendStream
        // allows the same range). A channel count that is no count (0, "-2", 1000) is ignored,
        // as a missing one is.
        guard encoding.count >= 2, let clockRate = SDPNumber.decimal(encoding[1]), (1...Self.maxClockRate).contains(clockRate) else {
            return nil
        }
        self.payloadType = payloadType
        encodingName = String(encoding[0])
        self.clockRate = clockRate
        channels = encoding.count > 2 ? SDPNumber.decimal(encoding[2]).flatMap { (1...255).contains($0) ? $0 : nil } : nil
    }

    static let maxClockRate = 1_000_000

    public var attributeValue: String {
        "\(payloadType) \(encodingName)/\(clockRate)" + (channels.map { "/\($0)" } ?? "")
    }
}

/// A non-attribute line (`c=`, `b=`, …) kept verbatim.
public struct SDPLine: Equatable, Sendable {
    public var type: Character
    public var value: String

    public init(type: Character, value: String) {
        self.type = type
        self.value = value
    }
}
