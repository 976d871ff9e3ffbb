/// Why an ICE allow list could not be parsed or resolved.
public enum ICEAllowListError: Error, Equatable, Sendable {
    /// The list held no entries (for example `--ice-allow ""`).
    case empty
    /// Looked like an IPv4 address but is not one (`10.0.0.300`).
    case invalidAddress(String)
    /// IPv6 entries are not supported: the agent gathers IPv4 host candidates only.
    case ipv6NotSupported(String)
    /// Not a possible Linux interface name (too long, contains '/' or whitespace).
    case invalidInterfaceName(String)
    /// No interface that is up matched. `available` lists `name=address` pairs to help the user.
    case nothingMatched(allowList: String, available: [String])
    /// getifaddrs failed.
    case interfaceQueryFailed(errno: Int32)
}
