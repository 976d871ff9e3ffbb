/// One reply from Redis (RESP2): what ``RedisConnection`` returns for a command.
public enum RedisValue: Sendable, Equatable {
    /// A bulk string: bytes, not necessarily UTF-8.
    case bulk([UInt8])
    /// A status line (`+OK`).
    case status(String)
    /// An error line (`-ERR …`): the command failed; the connection is fine.
    case error(String)
    case integer(Int64)
    case array([RedisValue])
    case null

    /// The text of a bulk string or a status, as UTF-8 (invalid bytes replaced).
    public var text: String? {
        switch self {
        case .bulk(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let line): line
        default: nil
        }
    }

    /// An integer reply, or a bulk string holding a decimal integer (what Lua's numbers and hash
    /// fields come back as).
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bulk: text.flatMap { Int64($0) }
        default: nil
        }
    }

    public var array: [RedisValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// A flat array of field, value, field, value… (HGETALL, a stream entry's fields) as a
    /// dictionary of texts; nil unless it is such an array. A repeated field keeps its last value.
    public var fields: [String: String]? {
        guard let items = array, items.count % 2 == 0 else { return nil }
        var fields: [String: String] = [:]
        var index = 0
        while index + 1 < items.count {
            guard let key = items[index].text, let value = items[index + 1].text else { return nil }
            fields[key] = value
            index += 2
        }
        return fields
    }
}
