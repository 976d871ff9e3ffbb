import COpenSSL
import Foundation
import Testing

@testable import Agent
@testable import AgentTransport

/// Known answers from RFC 3711 Appendix B, tied to libsrtp's output through an independent
/// AES-CM and HMAC computation done here with OpenSSL's raw AES block and HMAC-SHA1.
@Suite("SRTPContext")
struct SRTPContextTests {
    // RFC 3711 §B.3 master key and salt, and the session keys the RFC derives from them.
    static let b3MasterKey = hexBytes("E1F97A0D3E018BE0D64FA32C06DE4139")
    static let b3MasterSalt = hexBytes("0EC675AD498AFEEBB6960B3AABE6")
    static let b3CipherKey = hexBytes("C61E7A93744F39EE10734AFE3FF7A087")
    static let b3CipherSalt = hexBytes("30CBBC08863D8C85D49DB34A9AE1")
    static let b3AuthKey = hexBytes(
        "CEBE321F6FF7716B6FD4AB49AF256A15" + "6D38BAA48F0A0ACF3C34E2359E6CDBCE"
            + "E049646C43D9327AD175578EF7227098" + "6371C10C9A369AC2F94A8C5FBCDDDC25"
            + "6D6E919A48B610EF17C2041E47403576" + "6B68642C59BBFC2F34DB60DBDFB2")

    // MARK: - The test's own AES-CM against the RFC

    @Test("RFC 3711 §B.2: AES-CM keystream blocks, start and end of the segment")
    func aesCounterModeKeystream() {
        let key = hexBytes("2B7E151628AED2A6ABF7158809CF4F3C")
        let iv = hexBytes("F0F1F2F3F4F5F6F7F8F9FAFBFCFD0000")
        let keystream = aesCounterKeystream(key: key, iv: iv, length: 0xFF02 * 16)
        #expect(keystream[0..<48].elementsEqual(hexBytes(
            "E03EAD0935C95E80E166B16DD92B4EB4" + "D23513162B02D0F72A43A2FE4A5F97AB"
                + "41E95B3BB0A2E8DD477901E4FCA894C0")))
        #expect(keystream[(0xFEFF * 16)..<(0xFF02 * 16)].elementsEqual(hexBytes(
            "EC8CDF7398607CB0F2D21675EA9EA1E4" + "362B7C3C6773516318A077D7FC5073AE"
                + "6A2CC3787889374FBEB4C81B17BA6C44")))
    }

    @Test("RFC 3711 §B.3: key derivation gives the published cipher key, salt and auth key")
    func keyDerivation() {
        #expect(deriveSessionKey(label: 0, length: 16) == Self.b3CipherKey)
        #expect(deriveSessionKey(label: 2, length: 14) == Self.b3CipherSalt)
        #expect(deriveSessionKey(label: 1, length: 94) == Self.b3AuthKey)
    }

    // MARK: - libsrtp against the RFC

    @Test("libsrtp SRTP with the B.3 master key equals AES-CM + HMAC-SHA1 under the B.3 session keys")
    func protectMatchesRFC3711KnownAnswer() throws {
        let context = try SRTPContext(
            profile: .aes128CmHmacSha1_80, direction: .outbound,
            masterKey: Self.b3MasterKey, masterSalt: Self.b3MasterSalt)
        let ssrc: UInt32 = 0xCAFE_BABE
        for sequenceNumber: UInt16 in [0x1234, 0x1235, 0x1300] {
            let header = rtpHeader(sequenceNumber: sequenceNumber, timestamp: 0x0102_0304, ssrc: ssrc)
            let payloadLength = 100
            var packet = header + [UInt8](repeating: 0, count: payloadLength)
            try context.protectRTP(&packet)
            #expect(packet.count == header.count + payloadLength + 10)
            #expect(Array(packet[0..<12]) == header, "the header stays in the clear")

            // RFC 3711 §4.1.1: IV = (k_s * 2^16) XOR (SSRC * 2^64) XOR (i * 2^16), i = ROC || SEQ.
            let index = UInt64(sequenceNumber)  // ROC is 0 for these first packets
            let iv = srtpIV(salt: Self.b3CipherSalt, ssrc: ssrc, index: index)
            let keystream = aesCounterKeystream(key: Self.b3CipherKey, iv: iv, length: payloadLength)
            #expect(Array(packet[12..<(12 + payloadLength)]) == keystream, "payload = 0 XOR keystream")

            // RFC 3711 §4.2: tag = HMAC-SHA1(k_a, authenticated portion || ROC), first 80 bits.
            let authenticated = Array(packet[0..<(12 + payloadLength)]) + [0, 0, 0, 0]
            let tag = hmacSHA1(key: Array(Self.b3AuthKey[0..<20]), data: authenticated)
            #expect(Array(packet[(12 + payloadLength)...]) == Array(tag[0..<10]))
        }
    }

    @Test("libsrtp SRTCP with the B.3 master key equals AES-CM + HMAC-SHA1 under the RTCP labels 3, 4, 5")
    func protectRTCPMatchesDerivedKeys() throws {
        let context = try SRTPContext(
            profile: .aes128CmHmacSha1_80, direction: .outbound,
            masterKey: Self.b3MasterKey, masterSalt: Self.b3MasterSalt)
        let ssrc: UInt32 = 0x1122_3344
        // Receiver report (PT 201) with one report block: 8 octets of header + 24 of block.
        var rtcp: [UInt8] = [0x81, 201, 0x00, 0x07] + bigEndian(ssrc)
        rtcp += (0..<24).map { UInt8($0) }
        let plain = rtcp
        try context.protectRTCP(&rtcp)
        #expect(rtcp.count == plain.count + 4 + 10)
        #expect(Array(rtcp[0..<8]) == Array(plain[0..<8]), "the first 8 octets stay in the clear")

        let trailerStart = plain.count
        let eAndIndex = rtcp[trailerStart..<(trailerStart + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(eAndIndex & 0x8000_0000 != 0, "E flag set: encrypted")
        let srtcpIndex = UInt64(eAndIndex & 0x7FFF_FFFF)

        let rtcpKey = deriveSessionKey(label: 3, length: 16)
        let rtcpSalt = deriveSessionKey(label: 5, length: 14)
        let rtcpAuth = deriveSessionKey(label: 4, length: 20)
        let iv = srtpIV(salt: rtcpSalt, ssrc: ssrc, index: srtcpIndex)
        let keystream = aesCounterKeystream(key: rtcpKey, iv: iv, length: plain.count - 8)
        let expected = zip(plain[8...], keystream).map { $0 ^ $1 }
        #expect(Array(rtcp[8..<trailerStart]) == expected)
        let tag = hmacSHA1(key: rtcpAuth, data: Array(rtcp[0..<(trailerStart + 4)]))
        #expect(Array(rtcp[(trailerStart + 4)...]) == Array(tag[0..<10]))
    }

    // MARK: - Round trips and failures

    @Test("RTP and RTCP round trip", arguments: SRTPProfile.allCases)
    func roundTrip(profile: SRTPProfile) throws {
        let (sender, receiver) = try pair(profile)
        for sequenceNumber: UInt16 in 1...50 {
            let original = rtpHeader(sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) * 960, ssrc: 7)
                + (0..<(Int(sequenceNumber) * 7)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(sequenceNumber)) }
            var packet = original
            try sender.protectRTP(&packet)
            #expect(packet.count == original.count + profile.rtpOverhead)
            #expect(packet != original + [UInt8](repeating: 0, count: profile.rtpOverhead))
            try receiver.unprotectRTP(&packet)
            #expect(packet == original)
        }
        let report: [UInt8] = [0x80, 200, 0x00, 0x06] + bigEndian(7) + (0..<20).map { UInt8($0) }
        var packet = report
        try sender.protectRTCP(&packet)
        #expect(packet.count == report.count + profile.rtcpOverhead)
        try receiver.unprotectRTCP(&packet)
        #expect(packet == report)
    }

    @Test("A flipped bit fails authentication and leaves the length as it was", arguments: SRTPProfile.allCases)
    func tamperedPacketFails(profile: SRTPProfile) throws {
        let (sender, receiver) = try pair(profile)
        var packet = rtpHeader(sequenceNumber: 10, timestamp: 0, ssrc: 9) + [UInt8](repeating: 0x55, count: 40)
        try sender.protectRTP(&packet)
        packet[20] ^= 0x01
        let tamperedLength = packet.count
        #expect(throws: SRTPError.authenticationFailed) { try receiver.unprotectRTP(&packet) }
        #expect(packet.count == tamperedLength)

        var rtcp: [UInt8] = [0x80, 201, 0x00, 0x01] + bigEndian(9)
        try sender.protectRTCP(&rtcp)
        rtcp[rtcp.count - 1] ^= 0x80
        #expect(throws: SRTPError.authenticationFailed) { try receiver.unprotectRTCP(&rtcp) }
    }

    @Test("A replayed packet is refused; one older than the window too")
    func replayIsRefused() throws {
        let (sender, receiver) = try pair(.aes128CmHmacSha1_80)
        var first = rtpHeader(sequenceNumber: 100, timestamp: 0, ssrc: 3) + [1, 2, 3, 4]
        try sender.protectRTP(&first)
        let copy = first
        try receiver.unprotectRTP(&first)
        var replay = copy
        #expect(throws: SRTPError.replayed) { try receiver.unprotectRTP(&replay) }

        // Move the window far ahead, then deliver a packet from behind it.
        var old = rtpHeader(sequenceNumber: 101, timestamp: 0, ssrc: 3) + [5]
        try sender.protectRTP(&old)
        var ahead = rtpHeader(sequenceNumber: UInt16(101 + SRTPContext.replayWindowSize + 10), timestamp: 0, ssrc: 3) + [6]
        try sender.protectRTP(&ahead)
        try receiver.unprotectRTP(&ahead)
        #expect(throws: SRTPError.replayTooOld) { try receiver.unprotectRTP(&old) }

        var rtcp: [UInt8] = [0x80, 201, 0x00, 0x01] + bigEndian(3)
        try sender.protectRTCP(&rtcp)
        var rtcpReplay = rtcp
        try receiver.unprotectRTCP(&rtcp)
        #expect(throws: SRTPError.replayed) { try receiver.unprotectRTCP(&rtcpReplay) }
    }

    @Test("An outbound context resends the same sequence number (NACK retransmission)")
    func outboundAllowsRetransmission() throws {
        let (sender, _) = try pair(.aes128CmHmacSha1_80)
        let plain = rtpHeader(sequenceNumber: 5, timestamp: 0, ssrc: 4) + [9, 9, 9]
        var first = plain
        try sender.protectRTP(&first)
        var again = plain
        try sender.protectRTP(&again)
        #expect(first == again)
    }

    @Test("Bad parameters and misuse give typed errors")
    func misuse() throws {
        #expect(throws: SRTPError.invalidKeyLength(expected: 16, got: 15)) {
            try SRTPContext(profile: .aes128CmHmacSha1_80, direction: .outbound, masterKey: [UInt8](repeating: 1, count: 15), masterSalt: [UInt8](repeating: 2, count: 14))
        }
        #expect(throws: SRTPError.invalidSaltLength(expected: 12, got: 14)) {
            try SRTPContext(profile: .aeadAes128Gcm, direction: .outbound, masterKey: [UInt8](repeating: 1, count: 16), masterSalt: [UInt8](repeating: 2, count: 14))
        }
        let (sender, receiver) = try pair(.aes128CmHmacSha1_80)
        var packet = rtpHeader(sequenceNumber: 1, timestamp: 0, ssrc: 1)
        #expect(throws: SRTPError.wrongDirection) { try receiver.protectRTP(&packet) }
        #expect(throws: SRTPError.wrongDirection) { try sender.unprotectRTP(&packet) }
        var short: [UInt8] = [0x80, 0x60, 0, 1]
        #expect(throws: SRTPError.packetTooShort(minimum: 12, got: 4)) { try sender.protectRTP(&short) }
        #expect(short.count == 4)
        var shortRTCP: [UInt8] = [0x80, 200]
        #expect(throws: SRTPError.packetTooShort(minimum: 8, got: 2)) { try receiver.unprotectRTCP(&shortRTCP) }
        sender.close()
        sender.close()
        #expect(throws: SRTPError.closed) { try sender.protectRTP(&packet) }
        #expect(packet.count == 12)
    }

    @Test("A reused buffer with reserved capacity is never reallocated")
    func reusedBufferKeepsItsStorage() throws {
        let (sender, receiver) = try pair(.aes128CmHmacSha1_80)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1500)
        let address = buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        for sequenceNumber: UInt16 in 1...200 {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: rtpHeader(sequenceNumber: sequenceNumber, timestamp: 0, ssrc: 2))
            buffer.append(contentsOf: repeatElement(UInt8(truncatingIfNeeded: sequenceNumber), count: 1000))
            try sender.protectRTP(&buffer)
            try receiver.unprotectRTP(&buffer)
            #expect(buffer.count == 1012)
            #expect(buffer[500] == UInt8(truncatingIfNeeded: sequenceNumber))
        }
        #expect(buffer.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)
    }

    @Test("Raw buffer API protects in place")
    func rawBufferAPI() throws {
        let (sender, receiver) = try pair(.aes128CmHmacSha1_32)
        let plain = rtpHeader(sequenceNumber: 77, timestamp: 1, ssrc: 5) + [UInt8](repeating: 0xAB, count: 30)
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 200, alignment: 4)
        defer { storage.deallocate() }
        storage.copyBytes(from: plain)
        let protectedLength = try sender.protectRTP(in: storage, length: plain.count)
        #expect(protectedLength == plain.count + 4)
        #expect(throws: SRTPError.badParameter) {
            try sender.protectRTP(in: UnsafeMutableRawBufferPointer(rebasing: storage[0..<plain.count]), length: plain.count)
        }
        let plainLength = try receiver.unprotectRTP(in: storage, length: protectedLength)
        #expect(plainLength == plain.count)
        #expect(Array(storage[0..<plainLength]) == plain)
    }

    // MARK: - Keying material split

    @Test("RFC 5764 §4.2 keying material splits into client/server key and salt by role")
    func keyingMaterialSplit() throws {
        let exported = (0..<60).map { UInt8($0) }
        let client = try SRTPKeyingMaterial(exported: exported, profile: .aes128CmHmacSha1_80, role: .client)
        #expect(client.localMasterKey == Array(0..<16))
        #expect(client.remoteMasterKey == Array(16..<32))
        #expect(client.localMasterSalt == Array(32..<46))
        #expect(client.remoteMasterSalt == Array(46..<60))
        let server = try SRTPKeyingMaterial(exported: exported, profile: .aes128CmHmacSha1_80, role: .server)
        #expect(server.localMasterKey == client.remoteMasterKey)
        #expect(server.localMasterSalt == client.remoteMasterSalt)
        #expect(server.remoteMasterKey == client.localMasterKey)
        #expect(server.remoteMasterSalt == client.localMasterSalt)
        #expect(!client.description.contains("0, 1, 2"))

        let gcm = try SRTPKeyingMaterial(exported: Array(exported[0..<56]), profile: .aeadAes128Gcm, role: .client)
        #expect(gcm.localMasterSalt == Array(32..<44))
        #expect(gcm.remoteMasterSalt == Array(44..<56))
        #expect(throws: SRTPError.invalidKeyingMaterialLength(expected: 60, got: 56)) {
            try SRTPKeyingMaterial(exported: Array(exported[0..<56]), profile: .aes128CmHmacSha1_80, role: .client)
        }

        // The client's outbound context talks to the server's inbound one.
        let clientOut = try client.makeOutboundContext()
        let serverIn = try server.makeInboundContext()
        var packet = rtpHeader(sequenceNumber: 1, timestamp: 0, ssrc: 1) + [1, 2, 3]
        try clientOut.protectRTP(&packet)
        try serverIn.unprotectRTP(&packet)
        #expect(packet.suffix(3) == [1, 2, 3])
        var wrongWay = rtpHeader(sequenceNumber: 1, timestamp: 0, ssrc: 1) + [1, 2, 3]
        try clientOut.protectRTP(&wrongWay)
        #expect(throws: SRTPError.authenticationFailed) { try client.makeInboundContext().unprotectRTP(&wrongWay) }
    }

    @Test("Contexts can be made from many threads at once (srtp_init runs once)")
    func concurrentCreation() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let (sender, receiver) = try pair(.aes128CmHmacSha1_80)
                    var packet = rtpHeader(sequenceNumber: UInt16(worker), timestamp: 0, ssrc: UInt32(worker)) + [UInt8(worker)]
                    try sender.protectRTP(&packet)
                    try receiver.unprotectRTP(&packet)
                    #expect(packet.last == UInt8(worker))
                }
            }
            try await group.waitForAll()
        }
    }
}

// MARK: - Test-only crypto, independent of libsrtp

/// RFC 3711 §4.3.1 with key_derivation_rate 0: x = (label << 48) XOR master salt, then AES-CM
/// under the master key from IV x * 2^16.
private func deriveSessionKey(label: UInt8, length: Int) -> [UInt8] {
    var iv = SRTPContextTests.b3MasterSalt + [0, 0]
    iv[7] ^= label
    return aesCounterKeystream(key: SRTPContextTests.b3MasterKey, iv: iv, length: length)
}

/// IV = (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16), 16 octets (RFC 3711 §4.1.1).
private func srtpIV(salt: [UInt8], ssrc: UInt32, index: UInt64) -> [UInt8] {
    var iv = salt + [0, 0]
    for (offset, byte) in bigEndian(ssrc).enumerated() { iv[4 + offset] ^= byte }
    for offset in 0..<6 { iv[8 + offset] ^= UInt8(truncatingIfNeeded: index >> (8 * (5 - offset))) }
    return iv
}

/// AES-128 in counter mode built from single ECB block encryptions, the counter being the whole
/// 128-bit block incremented big-endian.
private func aesCounterKeystream(key: [UInt8], iv: [UInt8], length: Int) -> [UInt8] {
    let context = EVP_CIPHER_CTX_new()
    defer { EVP_CIPHER_CTX_free(context) }
    guard EVP_EncryptInit_ex(context, EVP_aes_128_ecb(), nil, key, nil) == 1 else { return [] }
    EVP_CIPHER_CTX_set_padding(context, 0)
    var counter = iv
    var output: [UInt8] = []
    output.reserveCapacity(length + 16)
    var block = [UInt8](repeating: 0, count: 32)
    while output.count < length {
        var written: Int32 = 0
        guard EVP_EncryptUpdate(context, &block, &written, counter, 16) == 1, written == 16 else { return [] }
        output.append(contentsOf: block[0..<16])
        for position in stride(from: 15, through: 0, by: -1) {
            counter[position] &+= 1
            if counter[position] != 0 { break }
        }
    }
    return Array(output[0..<length])
}

private func hmacSHA1(key: [UInt8], data: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 20)
    var length: UInt32 = 0
    _ = HMAC(EVP_sha1(), key, Int32(key.count), data, data.count, &digest, &length)
    return Array(digest[0..<Int(length)])
}

private func pair(_ profile: SRTPProfile) throws -> (SRTPContext, SRTPContext) {
    let key = (0..<profile.masterKeyLength).map { UInt8($0 &* 7 &+ 1) }
    let salt = (0..<profile.masterSaltLength).map { UInt8($0 &* 13 &+ 5) }
    return (
        try SRTPContext(profile: profile, direction: .outbound, masterKey: key, masterSalt: salt),
        try SRTPContext(profile: profile, direction: .inbound, masterKey: key, masterSalt: salt)
    )
}

/// A 12-octet RTP header (RFC 3550 §5.1): V=2, no padding/extension/CSRC, M=0, PT 96.
private func rtpHeader(sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32) -> [UInt8] {
    [0x80, 96, UInt8(sequenceNumber >> 8), UInt8(truncatingIfNeeded: sequenceNumber)]
        + bigEndian(timestamp) + bigEndian(ssrc)
}

private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
}

private func hexBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var iterator = text.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
        bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
    }
    return bytes
}
