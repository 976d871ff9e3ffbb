import Agent
import AgentdCore
import Foundation

/// A recipe as a daemon job (`POST /v1/bots`): a ``RecipeRunner`` whose stop comes from the
/// job's ``StopRequest``. Its figures are read from the runner once a second while it runs.
struct RecipeJobWork: JobWork {
    let runner: RecipeRunner
    let recipe: Recipe
    private let snapshot = Shared(JobProgress())

    init(runner: RecipeRunner) {
        self.runner = runner
        recipe = runner.recipe
    }

    func run(until stop: StopRequest) async throws -> [String: JSONValue] {
        let runner = self.runner
        let snapshot = self.snapshot
        let watch = Task {
            while !Task.isCancelled {
                let outcome = await runner.progress()
                snapshot.withLock { $0 = Self.progress(outcome) }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        defer { watch.cancel() }
        let outcome: RecipeOutcome
        do {
            outcome = try await runner.run(until: { await stop.wait() })
        } catch let failure as CommandFailure {
            throw JobFailure(description: failure.what)
        }
        snapshot.withLock { $0 = Self.progress(outcome) }
        return [
            "stopped_by": .string(outcome.stoppedBy), "summary": .string(outcome.line),
            "packets_sent": .integer(Int64(outcome.packetsSent)), "greetings": .integer(Int64(outcome.greetings)),
            "announcements": .integer(Int64(outcome.spoken)), "messages_sent": .integer(Int64(outcome.messagesSent)),
        ]
    }

    var progress: JobProgress { snapshot.current }

    /// Never a token or pin.
    var details: [String: JSONValue] {
        var details: [String: JSONValue] = [
            "recipe": .string(recipe.name), "role": .string(recipe.role.rawValue), "display": .string(recipe.display),
            "participants": .integer(Int64(recipe.participants)),
        ]
        if let room = recipe.room { details["room"] = .string(room) }
        if let server = recipe.server { details["server"] = .string(JanusURL.redacted(server)) }
        if let duration = recipe.duration { details["duration"] = .double(duration) }
        return details
    }

    private static func progress(_ outcome: RecipeOutcome) -> JobProgress {
        JobProgress(started: outcome.participants > 0, participants: outcome.participants, bytesWritten: 0, events: outcome.events)
    }
}

/// `POST /v1/bots` in a full build: the body's recipe (inline, or a name in the recipes
/// directory) with its overrides becomes a ``RecipeJobWork``; a bad recipe is a 400 naming the
/// JSON path.
enum RecipeBotJobs {
    static func factory(recipes: RecipeLibrary, environment: RecipeEnvironment) -> BotJobFactory {
        { (request: BotJobRequest) throws(BotJobRejection) -> any JobWork in
            var recipe: Recipe
            do throws(RecipeError) {
                switch request.recipe {
                case .string(let name): recipe = try recipes.recipe(named: name)
                default:
                    // An inline recipe's relative paths are relative to the media root.
                    let base = request.mediaRoot.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? recipes.directory
                    recipe = try RecipeLibrary.inline(request.recipe, baseDirectory: base)
                    try RecipePrograms.refuseInline(recipe)
                }
                recipe = try RecipeMediaRoot.confine(recipe, to: request.mediaRoot)
            } catch {
                throw .badRequest("recipe: \(error.description)")
            }
            recipe = RecipeOverrides(join: request.join, duration: request.duration).applied(to: recipe)
            guard recipe.server != nil else { throw .badRequest("no server: give \"server\" in the body or the recipe, or set one in the config") }
            guard recipe.room != nil else { throw .badRequest("no room: give \"room\" in the body or the recipe") }
            if recipe.role == .audience {
                do {
                    _ = try RecipeRecording.request(for: recipe, server: recipe.server ?? "", room: recipe.room ?? "", outputRoot: request.outputRoot)
                } catch let failure as CommandFailure {
                    throw .badRequest(failure.what)
                } catch {
                    throw .badRequest("$.record.formats: \(ErrorText.describe(error))")
                }
            }
            var jobEnvironment = environment
            jobEnvironment.outputRoot = request.outputRoot
            jobEnvironment.stopName = "request"
            return RecipeJobWork(runner: RecipeRunner(recipe: recipe, ice: request.ice, environment: jobEnvironment))
        }
    }
}
