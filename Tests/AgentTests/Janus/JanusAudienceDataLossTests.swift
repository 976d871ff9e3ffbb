import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentJanus
@testable import AgentTransport

/// The audience's data transport dies while media flows (SCTP gave up after a long outage that
/// an ICE restart rode out): the audience rebuilds the link, since only a new PeerConnection
/// brings a new SCTP association, and data messages arrive again.
@Suite("JanusAudienceDataLoss", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct JanusAudienceDataLossTests {
    typealias Recorded = JanusAudienceInteropTests.Recorded

    static func dataMessages(in recorded: Recorded, after start: Int) -> Int {
        recorded.events.withLock { events in
            events[min(start, events.count)...].filter { if case .data = $0 { true } else { false } }.count
        }
    }

    @Test("a dead SCTP association rebuilds the link: reconnecting, connected, a new PeerConnection, data again")
    func deadDataTransportRebuildsTheLink() async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared { try await loseTheDataTransport() }
        }
    }

    private func loseTheDataTransport() async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("dataloss")
        // alice sends a data message every 200 ms.
        let (alice, _) = try await JanusAudienceInteropTests().startPublisher(lab, room: room, display: "alice", tone: 440, create: true)
        defer { alice.terminate() }
        let loop = EventLoop(name: "test.dataloss")
        defer { loop.shutdown() }
        let recorded = Recorded()
        let audience = JanusAudience.forLab(lab, room: room, loop: loop, recorded: recorded)
        try await audience.start()
        do {
            try await pollUntil(timeout: .seconds(20), "alice's data messages") { Self.dataMessages(in: recorded, after: 0) >= 5 }
            let peerBefore = await audience.peer
            try await audience.simulateDataTransportLoss()
            try await pollUntil(timeout: .seconds(10), "reconnecting") {
                JanusAudienceICERestartTests.index(of: .reconnecting(attempt: 1), in: recorded) != nil
            }
            let dropped = try #require(JanusAudienceICERestartTests.index(of: .reconnecting(attempt: 1), in: recorded))
            try await pollUntil(timeout: .seconds(30), "connected again") {
                JanusAudienceICERestartTests.index(of: .connected, in: recorded, after: dropped) != nil
            }
            let back = try #require(JanusAudienceICERestartTests.index(of: .connected, in: recorded, after: dropped))
            try await pollUntil(timeout: .seconds(20), "alice's data after the rebuild") { Self.dataMessages(in: recorded, after: back) >= 5 }
            #expect(await audience.reconnects == 1, "the link was rebuilt")
            #expect(await audience.iceRestarts == 0, "not an ICE restart: it would keep the dead association")
            let peerAfter = try #require(await audience.peer)
            #expect(peerAfter !== peerBefore)
        } catch {
            await audience.stop()
            throw error
        }
        await audience.stop()
    }
}
