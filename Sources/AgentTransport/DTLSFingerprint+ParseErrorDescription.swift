/// How an a=fingerprint value that cannot be parsed reads to a person.
extension DTLSFingerprint.ParseError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "the fingerprint is empty"
        case .missingDigest: "the fingerprint has no digest"
        case .unsupportedAlgorithm(let name): "hash '\(name.prefix(20))' is not supported"
        case .invalidHexPair(let pair): "'\(pair.prefix(8))' is not a hex byte"
        case .wrongDigestLength(let algorithm, let expected, let got): "a \(algorithm.rawValue) digest has \(expected) bytes, not \(got)"
        }
    }
}
