import AgentdCore

/// Programs a recipe would start: a command speech engine (captions, agent) and a command
/// responder. A recipe posted inline to the daemon's API may start none of them, or any caller
/// with the API token could run any program on the daemon's host; recipes from the daemon's own
/// recipes directory (put there by whoever runs it) and `agentd bot` may.
enum RecipePrograms {
    /// The JSON paths of every program `recipe` would start.
    static func paths(in recipe: Recipe) -> [String] {
        var paths: [String] = []
        if case .command? = recipe.captions?.engine { paths.append("$.captions.command") }
        if let agent = recipe.agent {
            if case .command = agent.engine { paths.append("$.agent.command") }
            if case .command = agent.responder { paths.append("$.agent.responder.command") }
        }
        return paths
    }

    /// Refuses an inline API recipe that would start a program.
    static func refuseInline(_ recipe: Recipe) throws(RecipeError) {
        guard let path = paths(in: recipe).first else { return }
        throw .invalid(path: path, message: "a recipe posted to the API starts no programs; put it in the daemon's recipes directory and post its name")
    }
}
