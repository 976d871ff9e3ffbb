/// Reads a benchmark's command line one option at a time, with typed failures for missing or
/// malformed values.
struct ArgumentCursor {
    private var rest: ArraySlice<String>

    init(_ arguments: [String]) { rest = arguments[...] }

    mutating func next() -> String? { rest.popFirst() }

    /// The value after option `name`.
    mutating func value(_ name: String) throws(BenchError) -> String {
        guard let next = rest.popFirst() else { throw BenchError("\(name) needs a value") }
        return next
    }

    mutating func number(_ name: String) throws(BenchError) -> Double {
        let text = try value(name)
        guard let parsed = Double(text), parsed.isFinite, parsed >= 0 else {
            throw BenchError("\(name) must be a non-negative number, got '\(text)'")
        }
        return parsed
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(BenchError) -> Int {
        let text = try value(name)
        guard let parsed = Int(text), range.contains(parsed) else {
            throw BenchError("\(name) must be \(range.lowerBound)-\(range.upperBound), got '\(text)'")
        }
        return parsed
    }

    /// A comma-separated list of counts, each in `range`.
    mutating func counts(_ name: String, in range: ClosedRange<Int>) throws(BenchError) -> [Int] {
        let text = try value(name)
        let counts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0.map(range.contains) ?? false }) else {
            throw BenchError("\(name) must be a comma-separated list of counts \(range.lowerBound)-\(range.upperBound), got '\(text)'")
        }
        return counts.compactMap { $0 }
    }

    /// WxH with even sides of at least 16.
    mutating func size(_ name: String) throws(BenchError) -> (width: Int, height: Int) {
        let text = try value(name)
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 % 2 == 0 }) else {
            throw BenchError("\(name) must be WxH with even sides of at least 16, got '\(text)'")
        }
        return (parts[0], parts[1])
    }
}
