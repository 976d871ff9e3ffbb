/// Reads structured input (a sequence of packets, a choice of mode) out of the fuzzer's bytes,
/// so the fuzzer's mutations steer the structure. Past the end every read gives zeros or empty.
struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    mutating func uint32() -> UInt32 { UInt32(uint16()) << 16 | UInt32(uint16()) }

    /// Up to `count` bytes.
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(count, 0))
        defer { offset = max(offset, end) }
        guard offset < end else { return [] }
        return Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] { take(bytes.count - offset) }
}
