/// How an `--ice-allow` list (or `AGENTD_ICE_ALLOW`) that cannot be used reads to a person.
extension ICEAllowListError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: "the allow-list is empty"
        case .invalidAddress(let text): "'\(text)' is not an IPv4 address"
        case .ipv6NotSupported(let text): "'\(text)' is IPv6, and only IPv4 is supported"
        case .invalidInterfaceName(let text): "'\(text)' is not an interface name"
        case .nothingMatched(let allowList, let available):
            "nothing in '\(allowList)' matches an interface that is up (up: \(available.isEmpty ? "none" : available.joined(separator: ", ")))"
        case .interfaceQueryFailed(let code): "listing the network interfaces failed (errno \(code))"
        }
    }
}
