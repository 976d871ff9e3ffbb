/// One `a=` line (RFC 8866 §5.13): a property (`a=rtcp-mux`) or a value (`a=mid:0`).
public struct SDPAttribute: Equatable, Sendable {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String? = nil) {
        self.name = name
        self.value = value
    }

    init(line: Substring) {
        if let colon = line.firstIndex(of: ":") {
            name = String(line[..<colon])
            value = String(line[line.index(after: colon)...])
        } else {
            name = String(line)
            value = nil
        }
    }

    var line: String { value.map { "a=\(name):\($0)" } ?? "a=\(name)" }
}

/// Attribute lookup shared by the session and media levels.
public protocol SDPAttributeHolder {
    var attributes: [SDPAttribute] { get set }
}

extension SDPAttributeHolder {
    /// The value of the first attribute with this name.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The values of every attribute with this name, in order.
    public func attributes(named name: String) -> [String] {
        attributes.compactMap { $0.name == name ? ($0.value ?? "") : nil }
    }

    public func hasAttribute(_ name: String) -> Bool {
        attributes.contains { $0.name == name }
    }
}
