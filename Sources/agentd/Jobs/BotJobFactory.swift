import AgentdCore

/// Why a bot could not be made: a bad recipe (400) or no recipe runner in this build (501).
struct BotJobRejection: Error, Equatable, CustomStringConvertible {
    let status: Int
    let message: String

    var description: String { message }

    static func badRequest(_ message: String) -> BotJobRejection {
        BotJobRejection(status: 400, message: message)
    }

    static let unavailable = BotJobRejection(status: 501, message: "bot recipes are not available in this build")
}

/// Turns a bot request into the job's work, or refuses it. The daemon receives one at
/// construction: the recipe runner in a full build, a test double in tests.
typealias BotJobFactory = @Sendable (BotJobRequest) throws(BotJobRejection) -> any JobWork
