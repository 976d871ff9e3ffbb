import COpenSSL
import Testing

@testable import Agent
@testable import AgentTransport

@Suite("DTLSCertificate")
struct DTLSCertificateTests {
    @Test("A fresh certificate is self-signed ECDSA P-256 and its fingerprint is SHA-256 of its DER")
    func certificate() throws {
        let certificate = try DTLSCertificate()
        let key = try #require(X509_get0_pubkey(certificate.certificate))
        #expect(EVP_PKEY_get_base_id(key) == EVP_PKEY_EC)
        #expect(EVP_PKEY_get_bits(key) == 256)
        #expect(X509_verify(certificate.certificate, key) == 1, "signed by its own key")

        // Independent digest: DER-encode and hash.
        var derPointer: UnsafeMutablePointer<UInt8>?
        let derLength = i2d_X509(certificate.certificate, &derPointer)
        try #require(derLength > 0)
        defer { CRYPTO_free(derPointer, #file, #line) }
        var digest = [UInt8](repeating: 0, count: 32)
        var digestLength: UInt32 = 0
        #expect(EVP_Digest(derPointer, Int(derLength), &digest, &digestLength, EVP_sha256(), nil) == 1)
        #expect(certificate.fingerprint.algorithm == .sha256)
        #expect(certificate.fingerprint.digest == digest)

        let value = certificate.fingerprint.sdpValue
        #expect(value.hasPrefix("sha-256 "))
        #expect(value.count == "sha-256 ".count + 32 * 3 - 1)
        #expect(try DTLSFingerprint(sdpValue: value) == certificate.fingerprint)
        #expect(try DTLSCertificate().fingerprint != certificate.fingerprint)
    }

    @Test("Formatting: upper-case hex pairs joined by colons")
    func formatting() throws {
        let fingerprint = try DTLSFingerprint(algorithm: .sha256, digest: (0..<32).map { UInt8($0 * 8) })
        #expect(fingerprint.sdpValue ==
            "sha-256 00:08:10:18:20:28:30:38:40:48:50:58:60:68:70:78:80:88:90:98:A0:A8:B0:B8:C0:C8:D0:D8:E0:E8:F0:F8")
        #expect("\(fingerprint)" == fingerprint.sdpValue)
    }

    @Test("Parsing accepts the forms peers send")
    func parsing() throws {
        let digest: [UInt8] = [0xAB, 0xCD, 0x01] + [UInt8](repeating: 0x5F, count: 29)
        let upper = "sha-256 AB:CD:01" + String(repeating: ":5F", count: 29)
        #expect(try DTLSFingerprint(sdpValue: upper) == DTLSFingerprint(algorithm: .sha256, digest: digest))
        #expect(try DTLSFingerprint(sdpValue: upper.lowercased()).digest == digest)
        #expect(try DTLSFingerprint(sdpValue: "SHA-256 " + upper.dropFirst(8)).algorithm == .sha256)
        #expect(try DTLSFingerprint(sdpValue: "a=fingerprint:" + upper + "\r\n").digest == digest)
        let sha1 = try DTLSFingerprint(sdpValue: "sha-1 " + (0..<20).map { _ in "0F" }.joined(separator: ":"))
        #expect(sha1.algorithm == .sha1)
        #expect(sha1.digest == [UInt8](repeating: 0x0F, count: 20))
    }

    @Test("Parsing garbage gives typed errors")
    func parsingFailures() {
        let pairs31 = (0..<31).map { _ in "AA" }.joined(separator: ":")
        #expect(throws: DTLSFingerprint.ParseError.empty) { try DTLSFingerprint(sdpValue: "") }
        #expect(throws: DTLSFingerprint.ParseError.empty) { try DTLSFingerprint(sdpValue: "   ") }
        #expect(throws: DTLSFingerprint.ParseError.missingDigest) { try DTLSFingerprint(sdpValue: "sha-256") }
        #expect(throws: DTLSFingerprint.ParseError.unsupportedAlgorithm("md5")) {
            try DTLSFingerprint(sdpValue: "md5 AA:BB")
        }
        #expect(throws: DTLSFingerprint.ParseError.invalidHexPair("GG")) {
            try DTLSFingerprint(sdpValue: "sha-256 GG:" + pairs31)
        }
        #expect(throws: DTLSFingerprint.ParseError.invalidHexPair("ABC")) {
            try DTLSFingerprint(sdpValue: "sha-256 ABC:" + pairs31)
        }
        #expect(throws: DTLSFingerprint.ParseError.invalidHexPair("")) {
            try DTLSFingerprint(sdpValue: "sha-256 " + pairs31 + ":")
        }
        #expect(throws: DTLSFingerprint.ParseError.invalidHexPair("+1")) {
            try DTLSFingerprint(sdpValue: "sha-256 +1:" + pairs31)
        }
        #expect(throws: DTLSFingerprint.ParseError.wrongDigestLength(algorithm: .sha256, expected: 32, got: 31)) {
            try DTLSFingerprint(sdpValue: "sha-256 " + pairs31)
        }
        #expect(throws: DTLSFingerprint.ParseError.invalidHexPair("extra")) {
            try DTLSFingerprint(sdpValue: "sha-256 " + pairs31 + ":AA extra")
        }
        #expect(throws: DTLSFingerprint.ParseError.wrongDigestLength(algorithm: .sha1, expected: 20, got: 2)) {
            try DTLSFingerprint(algorithm: .sha1, digest: [1, 2])
        }
    }
}
