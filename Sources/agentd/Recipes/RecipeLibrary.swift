import Agent
import AgentdCore
import Foundation

/// Where recipes come from: a file, or a name looked up in a recipes directory (the daemon's
/// `POST /v1/bots {"recipe": "tone"}` and `agentd bot tone`).
struct RecipeLibrary: Sendable {
    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    /// The recipe in `path`; its relative file paths resolve against the file's directory.
    static func load(path: String) throws(RecipeError) -> Recipe {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: RecipeParser.maximumRecipeBytes)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        return try RecipeParser.parse(data, baseDirectory: url.deletingLastPathComponent())
    }

    /// `<directory>/<name>.json`. Names follow the recipe name rule, so a name never leaves the
    /// directory.
    func recipe(named name: String) throws(RecipeError) -> Recipe {
        guard ChannelName.isValid(name) else {
            throw .invalid(path: "name", message: "expected a recipe name of \(ChannelName.ruleDescription), got \"\(name.prefix(60))\"")
        }
        let path = directory.appendingPathComponent("\(name).json").path
        guard FileManager.default.fileExists(atPath: path) else { throw .notFound(name: name, directory: directory.path) }
        return try Self.load(path: path)
    }

    /// The names of the recipes in the directory, sorted.
    func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && $0 != "schema.json" }.map { String($0.dropLast(5)) }.sorted()
    }

    /// A recipe given inline (a daemon request body); relative paths resolve against `baseDirectory`.
    static func inline(_ value: JSONValue, baseDirectory: URL) throws(RecipeError) -> Recipe {
        try RecipeParser.parse(value, baseDirectory: baseDirectory)
    }
}
