/// One implementation's N publishers in a publish run: their display names, how to start them
/// once the room exists, and what to say about them after they stopped.
struct PublisherSide {
    typealias Start = (_ room: String, _ logs: String, _ tokenArguments: [String]) throws(BenchError) -> [Child]

    /// The column name in the table ("agentd", "aiortc").
    let label: String
    let displays: [String]
    let start: Start
    /// A note read from the stopped children's output (for example an encoder's frame counts).
    var note: ([Child]) -> String? = { _ in nil }
}
