import Agent

/// EBML encoding (RFC 8794): element ids, variable-size integers and typed element bodies, as
/// Matroska/WebM use them.
///
///     element = id (1-4 bytes, marker bits included) | size (vint, 1-8 bytes) | body
///     vint    = a leading 1 bit after (length-1) zero bits, then the value:
///               1xxxxxxx (7 bits) · 01xxxxxx xxxxxxxx (14 bits) · … · 00000001 + 7 bytes (56 bits)
enum EBML {
    /// Size value meaning "unknown" in the 8-byte form: all value bits set (RFC 8794 §6.2).
    static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// An element id as written: ids carry their own length marker, so write the significant bytes.
    static func id(_ id: UInt32) -> [UInt8] {
        var out: [UInt8] = []
        appendID(id, to: &out)
        return out
    }

    /// Appends an element id to `out` (no array of its own: the per-block path).
    static func appendID(_ id: UInt32, to out: inout [UInt8]) {
        let length = id > 0xFF_FFFF ? 4 : id > 0xFFFF ? 3 : id > 0xFF ? 2 : 1
        for index in stride(from: length - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: id >> (8 * UInt32(index)))) }
    }

    /// The shortest vint for `value`, or one of exactly `length` bytes when given.
    static func size(_ value: UInt64, length: Int? = nil) -> [UInt8] {
        var out: [UInt8] = []
        appendSize(value, length: length, to: &out)
        return out
    }

    /// The bytes of the shortest vint for `value`: a length-n vint holds values up to
    /// 2^(7n) - 2 (all-ones is reserved for unknown).
    static func sizeLength(_ value: UInt64) -> Int {
        var bytes = 1
        while bytes < 8, value >= (UInt64(1) << (7 * UInt64(bytes))) - 1 { bytes += 1 }
        return bytes
    }

    /// Appends ``size(_:length:)`` to `out` (no array of its own: the per-block path).
    static func appendSize(_ value: UInt64, length: Int? = nil, to out: inout [UInt8]) {
        let bytes = length ?? sizeLength(value)
        for index in stride(from: bytes - 1, through: 0, by: -1) {
            var byte = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
            if index == bytes - 1 { byte |= UInt8(0x80 >> (bytes - 1)) }
            out.append(byte)
        }
    }

    static func element(_ elementID: UInt32, _ body: [UInt8]) -> [UInt8] {
        id(elementID) + size(UInt64(body.count)) + body
    }

    static func unsigned(_ elementID: UInt32, _ value: UInt64) -> [UInt8] {
        var body: [UInt8] = []
        var remaining = value
        repeat {
            body.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        } while remaining > 0
        return element(elementID, body)
    }

    static func float(_ elementID: UInt32, _ value: Double) -> [UInt8] {
        element(elementID, floatBody(value))
    }

    /// A float element's body: the 8-byte IEEE 754 value, big-endian.
    static func floatBody(_ value: Double) -> [UInt8] {
        var body: [UInt8] = []
        body.appendBigEndian(value.bitPattern)
        return body
    }

    static func string(_ elementID: UInt32, _ value: String) -> [UInt8] {
        element(elementID, Array(value.utf8))
    }

    static func master(_ elementID: UInt32, _ children: [[UInt8]]) -> [UInt8] {
        element(elementID, children.flatMap { $0 })
    }

    /// A Void element of exactly `total` bytes (at least 2), reserving space to fill in later.
    static func void(total: Int) -> [UInt8] {
        let sizeLength = total - 1 > 127 ? 8 : 1
        return [0xEC] + size(UInt64(total - 1 - sizeLength), length: sizeLength) + [UInt8](repeating: 0, count: total - 1 - sizeLength)
    }
}

/// The Matroska element ids agentd writes (Matroska spec, RFC 9559 §5.1).
enum MatroskaID {
    static let ebml: UInt32 = 0x1A45_DFA3
    static let ebmlVersion: UInt32 = 0x4286
    static let ebmlReadVersion: UInt32 = 0x42F7
    static let ebmlMaxIDLength: UInt32 = 0x42F2
    static let ebmlMaxSizeLength: UInt32 = 0x42F3
    static let docType: UInt32 = 0x4282
    static let docTypeVersion: UInt32 = 0x4287
    static let docTypeReadVersion: UInt32 = 0x4285
    static let segment: UInt32 = 0x1853_8067
    static let seekHead: UInt32 = 0x114D_9B74
    static let seek: UInt32 = 0x4DBB
    static let seekID: UInt32 = 0x53AB
    static let seekPosition: UInt32 = 0x53AC
    static let info: UInt32 = 0x1549_A966
    static let timestampScale: UInt32 = 0x2AD7B1
    static let duration: UInt32 = 0x4489
    static let muxingApp: UInt32 = 0x4D80
    static let writingApp: UInt32 = 0x5741
    static let dateUTC: UInt32 = 0x4461
    static let tracks: UInt32 = 0x1654_AE6B
    static let trackEntry: UInt32 = 0xAE
    static let trackNumber: UInt32 = 0xD7
    static let trackUID: UInt32 = 0x73C5
    static let trackType: UInt32 = 0x83
    static let flagLacing: UInt32 = 0x9C
    static let defaultDuration: UInt32 = 0x23E383
    static let codecID: UInt32 = 0x86
    static let codecPrivate: UInt32 = 0x63A2
    static let codecDelay: UInt32 = 0x56AA
    static let seekPreRoll: UInt32 = 0x56BB
    static let video: UInt32 = 0xE0
    static let pixelWidth: UInt32 = 0xB0
    static let pixelHeight: UInt32 = 0xBA
    static let audio: UInt32 = 0xE1
    static let samplingFrequency: UInt32 = 0xB5
    static let channels: UInt32 = 0x9F
    static let cluster: UInt32 = 0x1F43_B675
    static let timestamp: UInt32 = 0xE7
    static let simpleBlock: UInt32 = 0xA3
    static let cues: UInt32 = 0x1C53_BB6B
    static let cuePoint: UInt32 = 0xBB
    static let cueTime: UInt32 = 0xB3
    static let cueTrackPositions: UInt32 = 0xB7
    static let cueTrack: UInt32 = 0xF7
    static let cueClusterPosition: UInt32 = 0xF1
}
