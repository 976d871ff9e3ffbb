/// What each job costs a worker's capacity (`agentd worker --capacity N --costs …`): a recording
/// its base plus a share per participant in its room (and more with a composite), a bot its
/// own. Units are the operator's (CPU cores by default: a recording of a few participants takes
/// a fraction of one core; a composite encodes video).
package struct JobCosts: Sendable, Equatable {
    package var recording = 0.25
    package var participant = 0.1
    package var composite = 1.0
    package var bot = 0.25

    package static let names = ["recording", "participant", "composite", "bot"]
    package static let rule = "KIND=COST,… with KIND one of recording, participant, composite, bot and COST from 0 to 1000"

    package init() {}

    /// `recording=1,participant=0.25,composite=2,bot=1`; kinds left out keep their defaults.
    package init?(parsing text: String) {
        guard text.utf8.count <= 256 else { return nil }
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let cost = Double(parts[1]), cost.isFinite, cost >= 0, cost <= 1000 else { return nil }
            switch parts[0] {
            case "recording": recording = cost
            case "participant": participant = cost
            case "composite": composite = cost
            case "bot": bot = cost
            default: return nil
            }
        }
    }

    /// A job's cost now: `participants` in its room (0 before it joined).
    package func cost(kind: String, participants: Int = 0, composite hasComposite: Bool = false) -> Double {
        switch kind {
        case "recording": recording + participant * Double(max(0, participants)) + (hasComposite ? composite : 0)
        default: bot
        }
    }

    /// The least any job costs to take: below it free, a worker reads no new job.
    package var cheapest: Double { min(recording, bot) }
}
