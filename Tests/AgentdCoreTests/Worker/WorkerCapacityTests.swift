@testable import AgentdCore
import Testing

@Suite("WorkerCapacity")
struct WorkerCapacityTests {
    @Test("costs: a recording's base plus its participants and composite; a bot its own; kinds left out keep their defaults")
    func costs() throws {
        let costs = try #require(JobCosts(parsing: "recording=1,participant=0.5,composite=2"))
        #expect(costs.cost(kind: "recording") == 1)
        #expect(costs.cost(kind: "recording", participants: 3, composite: true) == 1 + 1.5 + 2)
        #expect(costs.cost(kind: "bot") == JobCosts().bot)
        #expect(costs.cheapest == min(1, JobCosts().bot))
    }

    @Test("bad cost lists are nil", arguments: ["", "recording", "recording=", "recording=-1", "recording=nan", "recording=1e9", "cpu=1", "bot=1,,", String(repeating: "bot=1,", count: 60)])
    func badCosts(_ text: String) {
        #expect(JobCosts(parsing: text) == nil, "\(text.prefix(40))")
    }

    @Test("jobs fit while used plus their cost stays within the capacity; a growing room can pass it, and then nothing fits")
    func fitting() {
        var capacity = WorkerCapacity(capacity: 2)
        #expect(capacity.fits(2) && !capacity.fits(2.01))
        capacity.hold("a", cost: 1)
        #expect(capacity.fits(1) && !capacity.fits(1.5))
        capacity.hold("b", cost: 1)
        #expect(!capacity.fits(0.1) && capacity.free == 0 && capacity.held == 2)
        capacity.hold("a", cost: 1.8)  // people joined
        #expect(capacity.used == 2.8 && capacity.free == 0 && !capacity.fits(0))
        capacity.release("a")
        capacity.release("unknown")
        #expect(capacity.used == 1 && capacity.fits(1) && capacity.held == 1)
    }
}
