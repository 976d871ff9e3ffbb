/// A command line that does not fit the command's spec. Always exit code 2.
enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCommand(String)
    case unknownOption(String)
    case missingValue(option: String)
    case missingRequired(option: String)
    case invalidValue(option: String, value: String, expected: String)
    case unexpectedArgument(String)
    case missingPositional(String)
    case repeatedOption(String)
    /// Two options that mean different things together (`--whip` with `--server`).
    case conflicting(option: String, with: String, why: String)
    /// An option that means nothing without another (`--continue` without `--out`).
    case needs(option: String, other: String, why: String)

    var description: String { message }

    var message: String {
        switch self {
        case .unknownCommand(let name): "unknown command '\(name)'"
        case .unknownOption(let name): "unknown option '\(name)'"
        case .missingValue(let option): "--\(option) needs a value"
        case .missingRequired(let option): "--\(option) is required"
        case .invalidValue(let option, let value, let expected): "--\(option) '\(value)' is not \(expected)"
        case .unexpectedArgument(let argument): "unexpected argument '\(argument)'"
        case .missingPositional(let name): "missing \(name)"
        case .repeatedOption(let name): "--\(name) given more than once"
        case .conflicting(let option, let other, let why): "--\(option) cannot be combined with --\(other) (\(why))"
        case .needs(let option, let other, let why): "--\(option) needs --\(other) (\(why))"
        }
    }
}
