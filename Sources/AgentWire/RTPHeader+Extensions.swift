/// Header extension elements (RFC 8285): one-byte form (§4.2, profile 0xBEDE) and two-byte form
/// (§4.3, profile 0x100X).
///
///     one-byte element:            two-byte element:
///      0 1 2 3 4 5 6 7              0                   1
///     +-+-+-+-+-+-+-+-+            +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     |  ID   |  len  | data…      |       ID      |     length    | data…
///     +-+-+-+-+-+-+-+-+            +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
///     (len is length-1)            (length is the data length)
///
/// ID 0 is padding in both forms; in the one-byte form ID 15 ends the scan.
extension RTPHeader {
    /// The byte range of extension element `id`'s data in `bytes`, if present.
    public func extensionElement(id: UInt8, in bytes: UnsafeRawBufferPointer) throws(RTPError) -> Range<Int>? {
        guard let range = extensionRange, let profile = extensionProfile else { return nil }
        let oneByte = profile == Self.oneByteProfile
        let twoByte = profile & 0xFFF0 == 0x1000
        guard oneByte || twoByte else { return nil }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let first = bytes[offset]
            if first == 0 {  // padding
                offset += 1
                continue
            }
            let elementID: UInt8
            let length: Int
            let dataStart: Int
            if oneByte {
                elementID = first >> 4
                if elementID == 15 { return nil }
                length = Int(first & 0x0F) + 1
                dataStart = offset + 1
            } else {
                guard offset + 1 < range.upperBound else { throw .badExtensionElement(offset: offset) }
                elementID = first
                length = Int(bytes[offset + 1])
                dataStart = offset + 2
            }
            let dataEnd = dataStart + length
            guard dataEnd <= range.upperBound else { throw .badExtensionElement(offset: offset) }
            if elementID == id { return dataStart..<dataEnd }
            offset = dataEnd
        }
        return nil
    }

    /// The MID (RFC 8843 §15.2, `urn:ietf:params:rtp-hdrext:sdes:mid`) carried in element `id`.
    public func mid(extensionID id: UInt8, in bytes: UnsafeRawBufferPointer) throws(RTPError) -> String? {
        guard let range = try extensionElement(id: id, in: bytes) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
