/// Why a recipe cannot be read or run as written. All of them are found before anything joins
/// (exit 2 from `agentd bot`, 400 from the daemon).
package enum RecipeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The recipe file cannot be read.
    case unreadable(path: String, reason: String)
    /// Not JSON at all.
    case malformedJSON(String)
    /// A key or value that does not fit; `path` is a JSON path such as `$.tracks.audio.frequency`.
    case invalid(path: String, message: String)
    /// No recipe of that name in the recipes directory.
    case notFound(name: String, directory: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read recipe \(path): \(reason)"
        case .malformedJSON(let reason): "the recipe is not valid JSON: \(reason)"
        case .invalid(let path, let message): "\(path): \(message)"
        case .notFound(let name, let directory): "no recipe named '\(name)' in \(directory)"
        }
    }
}
