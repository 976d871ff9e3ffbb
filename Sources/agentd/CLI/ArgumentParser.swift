/// Parses `--name value`, `--name=value` and `--flag` against a ``CommandSpec``.
///
/// Deliberately small: the CLI contract only has long options. `--` ends options. Environment
/// fallbacks (like `AGENTD_ICE_ALLOW`) are applied after parsing, so a flag always wins.
struct ArgumentParser: Sendable {
    let spec: CommandSpec
    let environment: [String: String]

    init(spec: CommandSpec, environment: [String: String] = [:]) {
        self.spec = spec
        self.environment = environment
    }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("--") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = spec.option(named: name) else { throw .unknownOption("--\(name)") }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                } else {
                    throw .missingValue(option: name)
                }
                if let earlier = parsed.values[name] {
                    guard option.repeatable else { throw .repeatedOption(name) }
                    parsed.values[name] = earlier + "," + value
                } else {
                    parsed.values[name] = value
                }
            } else {
                if inlineValue != nil { throw .invalidValue(option: name, value: inlineValue ?? "", expected: "allowed: it takes no value") }
                parsed.flags.insert(name)
            }
        }
        if parsed.has("help") { return parsed }
        for option in spec.options {
            if parsed.values[option.name] == nil, let variable = option.environment,
                let value = environment[variable], !value.isEmpty
            {
                parsed.values[option.name] = value
            }
            if option.required, option.takesValue, parsed.values[option.name] == nil {
                throw .missingRequired(option: option.name)
            }
        }
        if parsed.positionals.count > spec.positionals.count {
            throw .unexpectedArgument(parsed.positionals[spec.positionals.count])
        }
        if parsed.positionals.count < spec.positionals.count {
            throw .missingPositional(spec.positionals[parsed.positionals.count])
        }
        return parsed
    }
}
