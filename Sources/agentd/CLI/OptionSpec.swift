/// One `--name [VALUE]` option of a command, as shown in its help and accepted by the parser.
struct OptionSpec: Sendable, Equatable {
    let name: String
    /// nil for a flag that takes no value.
    let valueName: String?
    let help: String
    let required: Bool
    /// The environment variable that supplies the value when the flag is absent.
    let environment: String?
    /// May be given more than once; the values are joined with commas, as one comma-separated
    /// list would be (``ParsedArguments/list(_:)``). Only for values that never hold a comma.
    var repeatable = false

    static func value(
        _ name: String, _ valueName: String, _ help: String, required: Bool = false,
        environment: String? = nil, repeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, required: required, environment: environment, repeatable: repeatable)
    }

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, required: false, environment: nil)
    }

    var takesValue: Bool { valueName != nil }

    /// `--server WS_URL` or `--json`, the way usage lines and help show it.
    var synopsis: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }
}
