/// A certificate fingerprint as SDP carries it in `a=fingerprint` (RFC 8122 §5, formerly
/// RFC 4572 §5):
///
///     fingerprint-attribute  =  "fingerprint" ":" hash-func SP fingerprint
///     hash-func              =  "sha-1" / "sha-224" / "sha-256" / "sha-384" / "sha-512" / …
///     fingerprint            =  2UHEX *(":" 2UHEX)
///
/// e.g. `sha-256 4A:AD:B9:…` with one two-digit upper-case hex pair per digest octet. The hash
/// name is case-insensitive; we also accept lower-case hex, which some stacks send.
public struct DTLSFingerprint: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The hash functions RFC 8122 §5 lists that a WebRTC peer may use (sha-256 in practice;
    /// RFC 8827 §6.5 forbids anything weaker for new certificates, but sha-1 still parses).
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha1 = "sha-1"
        case sha224 = "sha-224"
        case sha256 = "sha-256"
        case sha384 = "sha-384"
        case sha512 = "sha-512"

        /// The digest length in octets.
        public var digestLength: Int {
            switch self {
            case .sha1: 20
            case .sha224: 28
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }
    }

    /// Why an `a=fingerprint` value did not parse.
    public enum ParseError: Error, Equatable, Sendable {
        /// Nothing after trimming.
        case empty
        /// A hash name with no digest after it.
        case missingDigest
        /// A hash name we do not know (`md5` and `md2` are refused on purpose).
        case unsupportedAlgorithm(String)
        /// A colon-separated field that is not exactly two hex digits.
        case invalidHexPair(String)
        /// The digest length does not match the algorithm.
        case wrongDigestLength(algorithm: Algorithm, expected: Int, got: Int)
    }

    public let algorithm: Algorithm
    public let digest: [UInt8]

    /// A fingerprint from its parts. The digest length is checked because a truncated digest
    /// would compare unequal forever and fail every handshake with a confusing mismatch.
    public init(algorithm: Algorithm, digest: [UInt8]) throws(ParseError) {
        guard digest.count == algorithm.digestLength else {
            throw .wrongDigestLength(algorithm: algorithm, expected: algorithm.digestLength, got: digest.count)
        }
        self.algorithm = algorithm
        self.digest = digest
    }

    /// Parses an `a=fingerprint` value (`sha-256 AB:CD:…`), or the whole attribute line with
    /// its `a=fingerprint:` prefix.
    public init(sdpValue: String) throws(ParseError) {
        var text = Substring(sdpValue)
        text = text.drop(while: \.isWhitespace)
        for prefix in ["a=fingerprint:", "fingerprint:"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        // `isWhitespace` also covers "\r\n", which Swift treats as one Character.
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard let name = fields.first else { throw .empty }
        guard let algorithm = Algorithm(rawValue: name.lowercased()) else {
            throw .unsupportedAlgorithm(String(name))
        }
        guard fields.count >= 2 else { throw .missingDigest }
        guard fields.count == 2 else { throw .invalidHexPair(String(fields[2])) }
        var digest: [UInt8] = []
        digest.reserveCapacity(algorithm.digestLength)
        for pair in fields[1].split(separator: ":", omittingEmptySubsequences: false) {
            // `UInt8(_:radix:)` alone would accept "+1".
            guard pair.utf8.count == 2, pair.allSatisfy(\.isHexDigit), let octet = UInt8(pair, radix: 16) else {
                throw .invalidHexPair(String(pair))
            }
            digest.append(octet)
        }
        try self.init(algorithm: algorithm, digest: digest)
    }

    /// The value for `a=fingerprint:`, e.g. `sha-256 AB:CD:…`.
    public var sdpValue: String {
        algorithm.rawValue + " " + digest.map { octet in
            let hex = String(octet, radix: 16, uppercase: true)
            return octet < 0x10 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    public var description: String { sdpValue }
}
