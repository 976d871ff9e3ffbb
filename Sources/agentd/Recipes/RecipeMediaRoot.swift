import AgentdCore
import Foundation

/// Where the daemon's recipes may read files from: the config's `media_root`. A recipe posted
/// to the API names files on the daemon's host, so without this rule any caller could play
/// (that is, send into a room) any file the daemon can read. `agentd bot` is not restricted:
/// its user already has the files.
enum RecipeMediaRoot {
    /// The recipe with its file paths replaced by their real paths (symlinks and `..` resolved),
    /// each of which must be an existing file under `root` (itself a real path); nil `root`
    /// refuses every file. Later opens then use those real paths.
    static func confine(_ recipe: Recipe, to root: String?) throws(RecipeError) -> Recipe {
        var confined = recipe
        if case .file(let list) = recipe.audio {
            confined.audio = .file(try confine(list, of: recipe, at: "$.tracks.audio", root: root))
        }
        if case .file(let list) = recipe.video {
            confined.video = .file(try confine(list, of: recipe, at: "$.tracks.video", root: root))
        }
        return confined
    }

    private static func confine(_ list: Recipe.FileList, of recipe: Recipe, at path: String, root: String?) throws(RecipeError) -> Recipe.FileList {
        guard let root else {
            throw .invalid(path: path, message: "this daemon plays no files: set media_root in its config to allow files under that directory")
        }
        var confined = list
        for (index, file) in list.playlist.enumerated() {
            let at = "\(path).playlist[\(index)]"
            guard let real = realPath(recipe.resolve(file)) else {
                throw .invalid(path: at, message: "\(file) does not exist under media_root")
            }
            guard isInside(real, root: root) else {
                throw .invalid(path: at, message: "\(file) is outside media_root (\(root)); symlinks and .. count where they lead")
            }
            confined.playlist[index] = real
        }
        return confined
    }

    /// `path` with every symlink and `..` resolved, nil if it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isInside(_ path: String, root: String) -> Bool {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        return path == base || path.hasPrefix(base + "/") || base.isEmpty
    }
}
