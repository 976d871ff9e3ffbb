import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where ICE may gather host candidates: interface names or IPv4 addresses.
///
/// This is the `--ice-allow LIST` / `AGENTD_ICE_ALLOW` contract (ARCHITECTURE.md). Without a list,
/// every interface that is up except loopback is used. The list matters beyond taste: the lab's
/// traffic may only use loopback or our own namespaces (LAB.md), and libnice on its own gathers on
/// every interface, so the agent resolves the list to addresses and hands libnice only those.
///
/// `"lo,eth0,10.77.0.1"` allows every IPv4 address of `lo` and `eth0`, plus 10.77.0.1 if it is
/// assigned to an interface that is up.
public struct ICEAllowList: Sendable, Equatable, CustomStringConvertible {
    public enum Entry: Sendable, Equatable, CustomStringConvertible {
        case interface(String)
        /// Dotted-quad IPv4 address, normalized.
        case address(String)

        public var description: String {
            switch self {
            case .interface(let name): name
            case .address(let address): address
            }
        }
    }

    /// One IPv4 address of an interface, as getifaddrs reports it.
    public struct InterfaceAddress: Sendable, Equatable {
        public var interface: String
        public var address: String
        public var isUp: Bool
        public var isLoopback: Bool

        public init(interface: String, address: String, isUp: Bool, isLoopback: Bool) {
            self.interface = interface
            self.address = address
            self.isUp = isUp
            self.isLoopback = isLoopback
        }
    }

    /// Empty means the default: every interface that is up except loopback.
    public let entries: [Entry]

    /// The default allow list.
    public static let allNonLoopback = ICEAllowList(entries: [])

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses a comma-separated list such as `"lo, eth0,10.77.0.1"`. Blank entries are skipped;
    /// a list with no entries at all is an error, because `--ice-allow ""` is almost surely a
    /// mistake rather than a request for the default.
    public init(parsing text: String) throws(ICEAllowListError) {
        var entries: [Entry] = []
        for rawPart in text.split(separator: ",", omittingEmptySubsequences: false) {
            let part = rawPart.trimmingCharacters(in: .whitespaces)
            if part.isEmpty { continue }
            entries.append(try Self.parseEntry(part))
        }
        guard !entries.isEmpty else { throw .empty }
        self.entries = entries
    }

    /// `--ice-allow` wins over `AGENTD_ICE_ALLOW`; neither gives the default.
    public static func fromCommandLine(
        flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ICEAllowListError) -> ICEAllowList {
        if let flag { return try ICEAllowList(parsing: flag) }
        if let value = environment["AGENTD_ICE_ALLOW"] { return try ICEAllowList(parsing: value) }
        return .allNonLoopback
    }

    public var description: String {
        entries.isEmpty ? "(all non-loopback)" : entries.map(\.description).joined(separator: ",")
    }

    /// Resolves against this machine's interfaces (getifaddrs).
    public func resolve() throws(ICEAllowListError) -> [String] {
        try resolve(against: try Self.currentInterfaceAddresses())
    }

    /// Resolves against a given interface table, so tests need not depend on the machine.
    /// Returns distinct IPv4 addresses in table order. Only interfaces that are up count.
    public func resolve(against table: [InterfaceAddress]) throws(ICEAllowListError) -> [String] {
        let usable = table.filter(\.isUp)
        var result: [String] = []
        func add(_ address: String) {
            if !result.contains(address) { result.append(address) }
        }
        if entries.isEmpty {
            usable.filter { !$0.isLoopback }.forEach { add($0.address) }
        } else {
            for row in usable {
                let allowed = entries.contains { entry in
                    switch entry {
                    case .interface(let name): row.interface == name
                    case .address(let address): row.address == address
                    }
                }
                if allowed { add(row.address) }
            }
        }
        guard !result.isEmpty else {
            throw .nothingMatched(allowList: description, available: usable.map { "\($0.interface)=\($0.address)" })
        }
        return result
    }

    /// The IPv4 addresses of this machine's interfaces.
    public static func currentInterfaceAddresses() throws(ICEAllowListError) -> [InterfaceAddress] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { throw .interfaceQueryFailed(errno: errno) }
        defer { freeifaddrs(head) }
        var rows: [InterfaceAddress] = []
        var cursor = head
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let socketAddress = entry.pointee.ifa_addr,
                socketAddress.pointee.sa_family == sa_family_t(AF_INET)
            else { continue }
            let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Self.format(ipv4: $0.pointee.sin_addr)
            }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            rows.append(
                InterfaceAddress(
                    interface: String(cString: entry.pointee.ifa_name), address: address,
                    isUp: flags & Int32(IFF_UP) != 0,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
        }
        return rows
    }

    private static func parseEntry(_ text: String) throws(ICEAllowListError) -> Entry {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            return .address(format(ipv4: ipv4))
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 {
            throw .ipv6NotSupported(text)
        }
        // Something made of digits and dots was meant as an address, not an interface name.
        if text.allSatisfy({ $0.isNumber || $0 == "." }) {
            throw .invalidAddress(text)
        }
        // Linux interface names: at most IFNAMSIZ-1 (15) bytes, no '/' or whitespace.
        let validName =
            text.utf8.count <= 15
            && text.allSatisfy { $0.isASCII && !$0.isWhitespace && $0 != "/" }
        guard validName else { throw .invalidInterfaceName(text) }
        return .interface(text)
    }

    private static func format(ipv4: in_addr) -> String {
        var copy = ipv4
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
