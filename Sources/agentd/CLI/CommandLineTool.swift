import Agent
import Foundation

/// The `agentd` entry point as a value, so tests can run it without a process.
struct CommandLineTool: Sendable {
    static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        RecordCommand.self, PlayCommand.self, BotCommand.self, ServeCommand.self, WorkerCommand.self, TokenCommand.self,
        ParticipantsCommand.self, ReportCommand.self, ReplayCommand.self,
    ]

    let environment: [String: String]
    let standardOutput: @Sendable (String) -> Void
    let standardError: @Sendable (String) -> Void
    /// The process's transport loops, handed to the command (main.swift makes the one group).
    let loops: LoopGroup

    static var globalHelp: String {
        var lines = [
            "agentd \(version): a headless participant for Janus VideoRoom rooms.",
            "",
            "usage: agentd <command> [options]",
            "",
            "commands:",
        ]
        let specs = commands.map { command in command.spec }
        let width = (specs.map { spec in spec.name.count }.max() ?? 0) + 2
        for spec in specs {
            lines.append("  " + spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + spec.summary)
        }
        lines += [
            "",
            "Run 'agentd <command> --help' for a command's options.",
            SharedOptions.exitCodeNote,
        ]
        return lines.joined(separator: "\n")
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// Runs `arguments` (without the program name) and returns the exit code.
    func run(_ arguments: [String]) async -> ExitCode {
        guard let first = arguments.first else {
            standardError(Self.globalHelp)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = Self.command(named: arguments[1]) {
                standardOutput(command.spec.helpText)
            } else if arguments.count > 1 {
                return usage(.unknownCommand(arguments[1]), spec: nil)
            } else {
                standardOutput(Self.globalHelp)
            }
            return .ok
        case "--version":
            standardOutput("agentd \(Self.version)")
            return .ok
        default:
            break
        }
        guard let command = Self.command(named: first) else {
            return usage(.unknownCommand(first), spec: nil)
        }
        let parser = ArgumentParser(spec: command.spec, environment: environment)
        do {
            let parsed = try parser.parse(Array(arguments.dropFirst()))
            if parsed.has("help") {
                standardOutput(command.spec.helpText)
                return .ok
            }
            let context = CommandContext(
                environment: environment, standardOutput: standardOutput, standardError: standardError, loops: loops)
            return try await command.run(parsed, context: context)
        } catch let error as UsageError {
            return usage(error, spec: command.spec)
        } catch let failure as CommandFailure {
            standardError(failure.line)
            return failure.code
        } catch {
            standardError(CommandFailure(.failure, ErrorText.describe(error)).line)
            return .failure
        }
    }

    private func usage(_ error: UsageError, spec: CommandSpec?) -> ExitCode {
        let hint = spec.map { "see 'agentd \($0.name) --help'" } ?? "see 'agentd --help'"
        standardError(CommandFailure(.usage, error.message, hint: hint).line)
        return .usage
    }
}
