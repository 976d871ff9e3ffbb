import Agent

extension FuzzTarget {
    /// DATA_CHANNEL_OPEN and ACK (RFC 8832 §5): a parsed message must encode to the bytes it
    /// was read from (the format has one encoding for each message).
    public static let dcep = FuzzTarget(name: "dcep", summary: "DCEPMessage(parsing:), DataChannelOpen, encode round trip", maxInputLength: 1024) { bytes in
        guard let message = try? DCEPMessage(parsing: bytes) else { return }
        let encoded = try? message.encode()
        // A label or protocol that is not UTF-8 is repaired on reading, so only UTF-8 ones can
        // come back byte for byte.
        if case .open(let open) = message, open.label.utf8.count + open.protocol.utf8.count + DataChannelOpen.headerSize != bytes.count {
            return
        }
        FuzzCheck.expect(encoded == Array(bytes), "\(message) encodes to \(String(describing: encoded)), read from \(Array(bytes))")
    }
}
