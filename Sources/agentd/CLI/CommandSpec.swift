/// What a command accepts and how its help reads. The parser and the help text both come from
/// this one description, so they cannot drift apart.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    /// Positional arguments, in order, by their usage names (e.g. `RECIPE.json`).
    let positionals: [String]
    let options: [OptionSpec]
    /// Extra paragraphs printed after the option list.
    let notes: [String]

    init(
        name: String, summary: String, positionals: [String] = [], options: [OptionSpec],
        notes: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options + [.flag("help", "Show this help and exit.")]
        self.notes = notes
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }

    /// The usage line, with optional options in brackets, as in ARCHITECTURE.md's CLI contract.
    var usage: String {
        var parts = ["agentd", name] + positionals
        for option in options where option.name != "help" {
            parts.append(option.required ? option.synopsis : "[\(option.synopsis)]")
        }
        return parts.joined(separator: " ")
    }

    var helpText: String {
        var lines = ["usage: \(usage)", "", summary, "", "options:"]
        let width = (options.map(\.synopsis.count).max() ?? 0) + 2
        for option in options {
            var help = option.help
            if option.repeatable { help += " Repeatable." }
            if let environment = option.environment { help += " Also set by \(environment); the flag wins." }
            if option.required { help += " Required." }
            lines.append("  " + option.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + help)
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: notes)
        }
        return lines.joined(separator: "\n")
    }
}
