import AgentCore

/// The VP9 RTP payload descriptor (RFC 9628 §4.2), flexible and non-flexible modes.
///
///           0 1 2 3 4 5 6 7
///          +-+-+-+-+-+-+-+-+
///          |I|P|L|F|B|E|V|Z| (REQUIRED)
///          +-+-+-+-+-+-+-+-+
///     I:   |M| PICTURE ID  | (RECOMMENDED; M=1: 15 bits over two bytes)
///          +-+-+-+-+-+-+-+-+
///     L:   | TID |U| SID |D| (layer indices)
///          +-+-+-+-+-+-+-+-+
///          |   TL0PICIDX   | (non-flexible mode only, F=0)
///          +-+-+-+-+-+-+-+-+                             -\
///     P,F: | P_DIFF      |N| (flexible mode, up to 3 times) |
///          +-+-+-+-+-+-+-+-+                             -/
///     V:   | SS            | (scalability structure)
///
/// B and E mark the first and last packet of a frame; P=0 with B=1 on the base spatial layer
/// starts a keyframe. The SS (when V=1) may carry the resolution of each spatial layer:
///
///          | N_S |Y|G|-|-|-|
///     Y:   | WIDTH (16 bits) | HEIGHT (16 bits) |   (N_S + 1 times)
///     G:   | N_G |, then N_G × ( | TID |U| R |-|-| then R × | P_DIFF | )
public struct VP9PayloadDescriptor: Equatable, Sendable {
    public var interPicturePredicted: Bool
    public var flexibleMode: Bool
    public var beginningOfFrame: Bool
    public var endOfFrame: Bool
    public var pictureID: UInt16?
    public var temporalLayer: UInt8?
    public var spatialLayer: UInt8?
    /// Resolution of each spatial layer from the scalability structure, when present.
    public var layerSizes: [(width: Int, height: Int)] = []
    /// Bytes the descriptor takes; the VP9 data follows.
    public var length: Int

    public static func == (lhs: VP9PayloadDescriptor, rhs: VP9PayloadDescriptor) -> Bool {
        lhs.interPicturePredicted == rhs.interPicturePredicted && lhs.flexibleMode == rhs.flexibleMode
            && lhs.beginningOfFrame == rhs.beginningOfFrame && lhs.endOfFrame == rhs.endOfFrame
            && lhs.pictureID == rhs.pictureID && lhs.temporalLayer == rhs.temporalLayer
            && lhs.spatialLayer == rhs.spatialLayer && lhs.length == rhs.length
            && lhs.layerSizes.map(\.width) == rhs.layerSizes.map(\.width)
            && lhs.layerSizes.map(\.height) == rhs.layerSizes.map(\.height)
    }

    /// A keyframe starts here: first packet of a frame that is not inter-predicted, base layer.
    public var startsKeyframe: Bool {
        beginningOfFrame && !interPicturePredicted && (spatialLayer ?? 0) == 0
    }

    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(VP9Error) -> VP9PayloadDescriptor {
        var reader = ByteReader(bytes)
        let descriptor: VP9PayloadDescriptor?
        do throws(ByteRangeError) {
            descriptor = try parse(&reader)
        } catch {
            throw .truncatedDescriptor
        }
        guard let descriptor else { throw .tooManyReferences }
        return descriptor
    }

    /// The descriptor's fields in order; nil when flexible mode lists more than 3 references.
    private static func parse(_ reader: inout ByteReader) throws(ByteRangeError) -> VP9PayloadDescriptor? {
        let first = try reader.readUInt8()
        var descriptor = VP9PayloadDescriptor(
            interPicturePredicted: first & 0x40 != 0, flexibleMode: first & 0x10 != 0,
            beginningOfFrame: first & 0x08 != 0, endOfFrame: first & 0x04 != 0, length: 0)
        if first & 0x80 != 0 {  // I
            let high = try reader.readUInt8()
            if high & 0x80 != 0 {
                descriptor.pictureID = UInt16(high & 0x7F) << 8 | UInt16(try reader.readUInt8())
            } else {
                descriptor.pictureID = UInt16(high)
            }
        }
        if first & 0x20 != 0 {  // L
            let layers = try reader.readUInt8()
            descriptor.temporalLayer = layers >> 5
            descriptor.spatialLayer = (layers >> 1) & 0x07
            if !descriptor.flexibleMode { try reader.skip(1) }  // TL0PICIDX
        }
        if descriptor.flexibleMode && descriptor.interPicturePredicted {
            var count = 0
            while true {
                let reference = try reader.readUInt8()
                count += 1
                if reference & 0x01 == 0 { break }
                guard count < 3 else { return nil }
            }
        }
        if first & 0x02 != 0 {  // V: scalability structure
            let header = try reader.readUInt8()
            let spatialLayers = Int(header >> 5) + 1
            if header & 0x10 != 0 {  // Y
                for _ in 0..<spatialLayers {
                    let width = Int(try reader.readBigEndian(UInt16.self))
                    let height = Int(try reader.readBigEndian(UInt16.self))
                    descriptor.layerSizes.append((width, height))
                }
            }
            if header & 0x08 != 0 {  // G
                let groups = Int(try reader.readUInt8())
                for _ in 0..<groups {
                    let group = try reader.readUInt8()
                    let references = Int((group >> 2) & 0x03)
                    try reader.skip(references)  // P_DIFFs
                }
            }
        }
        descriptor.length = reader.offset
        return descriptor
    }
}

/// Why a VP9 RTP payload could not be used.
public enum VP9Error: Error, Equatable, Sendable {
    case truncatedDescriptor
    case tooManyReferences
    case emptyPayload
}
