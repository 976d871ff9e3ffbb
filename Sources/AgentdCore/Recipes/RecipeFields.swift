import AgentCore

/// One JSON object of a recipe, read strictly: every key must be one the caller allows, and each
/// value is checked for type, range and size. Errors name the JSON path (`$.tracks.audio.frequency`).
///
/// Every string and list has a bound, so a recipe cannot make us hold what it declares: a
/// string is at most ``maximumStringBytes`` unless the caller allows another bound, and every
/// list is read with its own `maxCount`.
package struct RecipeFields {
    /// Longer than any name, path, token or sentence a recipe needs.
    package static let maximumStringBytes = 4096

    package let path: String
    package let object: [String: JSONValue]

    /// `value` must be an object whose keys are all in `allowed`.
    package init(_ value: JSONValue, at path: String, allowed: Set<String>) throws(RecipeError) {
        guard case .object(let object) = value else { throw .invalid(path: path, message: "expected an object, got \(Self.kind(of: value))") }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalid(path: "\(path).\(unknown)", message: "unknown key (allowed here: \(allowed.sorted().joined(separator: ", ")))")
        }
        self.path = path
        self.object = object
    }

    package func has(_ key: String) -> Bool { object[key] != nil }
    package func child(_ key: String) -> String { "\(path).\(key)" }

    package func string(_ key: String, matching rule: ((String) -> Bool)? = nil, expected: String = "a non-empty string",
                maxBytes: Int = maximumStringBytes) throws(RecipeError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else {
            throw .invalid(path: child(key), message: "expected \(expected), got \(Self.show(value))")
        }
        try Self.checkSize(text, at: child(key), maxBytes: maxBytes)
        guard !text.isEmpty, rule?(text) ?? true else {
            throw .invalid(path: child(key), message: "expected \(expected), got \(Self.show(value))")
        }
        return text
    }

    /// A string of at most `maxBytes` bytes of UTF-8.
    package static func checkSize(_ text: String, at path: String, maxBytes: Int = maximumStringBytes) throws(RecipeError) {
        let bytes = text.utf8.count
        guard bytes <= maxBytes else { throw .invalid(path: path, message: "expected at most \(maxBytes) bytes, got \(bytes)") }
    }

    package func requiredString(_ key: String, matching rule: ((String) -> Bool)? = nil, expected: String = "a non-empty string") throws(RecipeError) -> String {
        guard let text = try string(key, matching: rule, expected: expected) else { throw .invalid(path: child(key), message: "required (\(expected))") }
        return text
    }

    /// One of `choices`, by its raw value.
    package func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(RecipeError) -> T? where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let text = try string(key, matching: { names.contains($0) }, expected: "one of \(names.joined(separator: ", "))") else { return nil }
        return T(rawValue: text)
    }

    package func bool(_ key: String) throws(RecipeError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw .invalid(path: child(key), message: "expected true or false, got \(Self.show(value))") }
        return flag
    }

    package func number(_ key: String, in range: ClosedRange<Double>, exclusiveLower: Bool = false) throws(RecipeError) -> Double? {
        guard let value = object[key] else { return nil }
        let number: Double? = switch value {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
        let lowerText = exclusiveLower ? "above \(Self.format(range.lowerBound))" : "from \(Self.format(range.lowerBound))"
        guard let number, range.contains(number), !(exclusiveLower && number == range.lowerBound) else {
            throw .invalid(path: child(key), message: "expected a number \(lowerText) to \(Self.format(range.upperBound)), got \(Self.show(value))")
        }
        return number
    }

    package func integer(_ key: String, in range: ClosedRange<Int>) throws(RecipeError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let integer = value.integerValue, let int = Int(exactly: integer), range.contains(int) else {
            throw .invalid(path: child(key), message: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(Self.show(value))")
        }
        return int
    }

    package func array(_ key: String, maxCount: Int) throws(RecipeError) -> [JSONValue]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value else { throw .invalid(path: child(key), message: "expected an array, got \(Self.show(value))") }
        guard items.count <= maxCount else {
            throw .invalid(path: child(key), message: "expected at most \(maxCount) entries, got \(items.count)")
        }
        return items
    }

    /// A non-empty list of at most `maxCount` non-empty strings (each within the string bound).
    package func strings(_ key: String, maxCount: Int) throws(RecipeError) -> [String]? {
        guard let items = try array(key, maxCount: maxCount) else { return nil }
        guard !items.isEmpty else { throw .invalid(path: child(key), message: "expected at least one entry") }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, !text.isEmpty else {
                throw .invalid(path: "\(child(key))[\(index)]", message: "expected a non-empty string, got \(Self.show(item))")
            }
            try Self.checkSize(text, at: "\(child(key))[\(index)]")
            result.append(text)
        }
        return result
    }

    package static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value itself when short, else its kind.
    package static func show(_ value: JSONValue) -> String {
        switch value {
        case .object, .array: kind(of: value)
        default: String(value.serialized().prefix(60))
        }
    }

    package static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
