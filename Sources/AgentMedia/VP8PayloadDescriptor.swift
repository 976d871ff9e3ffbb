import AgentCore

/// The VP8 RTP payload descriptor (RFC 7741 §4.2) that starts every VP8 RTP payload.
///
///           0 1 2 3 4 5 6 7
///          +-+-+-+-+-+-+-+-+
///          |X|R|N|S|R| PID | (REQUIRED)
///          +-+-+-+-+-+-+-+-+
///     X:   |I|L|T|K| RSV   | (OPTIONAL)
///          +-+-+-+-+-+-+-+-+
///     I:   |M| PictureID   | (OPTIONAL, M=1: 15-bit picture id in two bytes)
///          +-+-+-+-+-+-+-+-+
///     L:   |   TL0PICIDX   | (OPTIONAL)
///          +-+-+-+-+-+-+-+-+
///     T/K: |TID|Y| KEYIDX  | (OPTIONAL)
///          +-+-+-+-+-+-+-+-+
///
/// After it comes VP8 payload; when S=1 and PID=0 that payload starts a frame, and bit 0 of its
/// first byte (the P bit of the frame tag, RFC 6386 §9.1) is 0 for a keyframe.
public struct VP8PayloadDescriptor: Equatable, Sendable {
    public var nonReference: Bool
    /// S: this packet starts a VP8 partition.
    public var startOfPartition: Bool
    public var partitionIndex: UInt8
    public var pictureID: UInt16?
    /// True when the picture id was sent in the 15-bit form.
    public var longPictureID: Bool
    public var tl0PictureIndex: UInt8?
    public var temporalLayer: UInt8?
    public var layerSync: Bool
    public var keyIndex: UInt8?
    /// Bytes the descriptor takes; the VP8 payload follows.
    public var length: Int

    public init(
        nonReference: Bool = false, startOfPartition: Bool, partitionIndex: UInt8 = 0, pictureID: UInt16? = nil,
        longPictureID: Bool = true
    ) {
        self.nonReference = nonReference
        self.startOfPartition = startOfPartition
        self.partitionIndex = partitionIndex
        self.pictureID = pictureID
        self.longPictureID = longPictureID
        tl0PictureIndex = nil
        temporalLayer = nil
        layerSync = false
        keyIndex = nil
        length = 1 + (pictureID == nil ? 0 : (longPictureID ? 3 : 2))
    }

    /// True when this packet's payload starts a new frame.
    public var startsFrame: Bool { startOfPartition && partitionIndex == 0 }

    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(VP8Error) -> VP8PayloadDescriptor {
        var reader = ByteReader(bytes)
        do throws(ByteRangeError) {
            return try parse(&reader)
        } catch {
            throw .truncatedDescriptor
        }
    }

    private static func parse(_ reader: inout ByteReader) throws(ByteRangeError) -> VP8PayloadDescriptor {
        let first = try reader.readUInt8()
        var descriptor = VP8PayloadDescriptor(
            nonReference: first & 0x20 != 0, startOfPartition: first & 0x10 != 0, partitionIndex: first & 0x07)
        if first & 0x80 != 0 {
            let extended = try reader.readUInt8()
            if extended & 0x80 != 0 {  // I
                let high = try reader.readUInt8()
                if high & 0x80 != 0 {
                    descriptor.pictureID = UInt16(high & 0x7F) << 8 | UInt16(try reader.readUInt8())
                    descriptor.longPictureID = true
                } else {
                    descriptor.pictureID = UInt16(high)
                    descriptor.longPictureID = false
                }
            }
            if extended & 0x40 != 0 {  // L
                descriptor.tl0PictureIndex = try reader.readUInt8()
            }
            if extended & 0x30 != 0 {  // T or K share one byte
                let byte = try reader.readUInt8()
                if extended & 0x20 != 0 {
                    descriptor.temporalLayer = byte >> 6
                    descriptor.layerSync = byte & 0x20 != 0
                }
                if extended & 0x10 != 0 { descriptor.keyIndex = byte & 0x1F }
            }
        }
        descriptor.length = reader.offset
        return descriptor
    }

    /// Appends the descriptor to `output`: every field that is set, so what ``parse(_:)`` read
    /// writes back (an X byte with no flags set is left out, so `length` may shrink).
    public func write(into output: inout [UInt8]) {
        let first: UInt8 = (nonReference ? 0x20 : 0) | (startOfPartition ? 0x10 : 0) | (partitionIndex & 0x07)
        let extended: UInt8 = (pictureID != nil ? 0x80 : 0) | (tl0PictureIndex != nil ? 0x40 : 0)
            | (temporalLayer != nil ? 0x20 : 0) | (keyIndex != nil ? 0x10 : 0)
        guard extended != 0 else {
            output.append(first)
            return
        }
        output.append(first | 0x80)
        output.append(extended)
        if let pictureID {
            if longPictureID {
                output.append(0x80 | UInt8((pictureID >> 8) & 0x7F))
                output.append(UInt8(truncatingIfNeeded: pictureID))
            } else {
                output.append(UInt8(pictureID & 0x7F))
            }
        }
        if let tl0PictureIndex { output.append(tl0PictureIndex) }
        if temporalLayer != nil || keyIndex != nil {
            // Y only means something with TID (RFC 7741 §4.2).
            let sync: UInt8 = temporalLayer != nil && layerSync ? 0x20 : 0
            output.append(((temporalLayer ?? 0) & 0x03) << 6 | sync | ((keyIndex ?? 0) & 0x1F))
        }
    }
}

/// Why a VP8 RTP payload could not be used.
public enum VP8Error: Error, Equatable, Sendable {
    case truncatedDescriptor
    case emptyPayload
}
