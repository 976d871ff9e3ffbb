import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Agent
@testable import AgentTransport

/// The process's shared transport loops: named threads Linux really shows, handed out in turn,
/// started only when asked for, and stopped only by the group's owner.
@Suite(.offThePool) struct LoopGroupTests {
    /// What the loop's own thread is called in /proc (what `top -H` and the thread counts see).
    static func kernelName(of loop: EventLoop) throws -> String {
        try loop.sync { ThreadNames.callingThread }
    }

    @Test("each loop's thread carries the group's name and its index, as the kernel shows it")
    func threadsAreNamed() throws {
        let group = LoopGroup(count: 3, name: "test.grp.io")
        defer { group.shutdown() }
        let loops = (0..<3).map { _ in group.next() }
        #expect(try loops.map(Self.kernelName) == ["test.grp.io.0", "test.grp.io.1", "test.grp.io.2"])
        #expect(ThreadNames.current.count(prefix: "test.grp.io.") == 3, "\(ThreadNames.current.summary)")
    }

    @Test("the default names fit Linux's 15 bytes and are set")
    func defaultNameIsSet() throws {
        let group = LoopGroup(count: 1)
        defer { group.shutdown() }
        #expect(try Self.kernelName(of: group.next()) == "agentd.io.0")
    }

    @Test("a loop name over 15 bytes is cut to 15, not dropped for the creator's name")
    func longLoopNamesAreCut() throws {
        let loop = EventLoop(name: "agentd.transport.0")
        defer { loop.shutdown() }
        #expect(try Self.kernelName(of: loop) == "agentd.transpor")
        #expect(loop.name == "agentd.transport.0", "the loop keeps its whole name for messages")
        #expect(ThreadName.fitting("agentd.io.12") == "agentd.io.12")
        // "é" is two bytes in UTF-8: five of them after "loop." fill the 15, the sixth is dropped whole.
        #expect(ThreadName.fitting("loop.\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}") == "loop.\u{E9}\u{E9}\u{E9}\u{E9}\u{E9}")
    }

    @Test("next() hands the loops out round robin, and starts a loop only when it is first handed out")
    func nextIsRoundRobinAndLazy() throws {
        let group = LoopGroup(count: 3, name: "test.grp.rr")
        defer { group.shutdown() }
        #expect(group.startedLoops.isEmpty)
        #expect(ThreadNames.current.count(prefix: "test.grp.rr.") == 0)
        let first = group.next()
        #expect(group.startedLoops.count == 1)
        let taken = [first] + (1..<7).map { _ in group.next() }
        #expect(taken.map(\.name) == ["test.grp.rr.0", "test.grp.rr.1", "test.grp.rr.2", "test.grp.rr.0", "test.grp.rr.1", "test.grp.rr.2", "test.grp.rr.0"])
        #expect(taken[0] === taken[3] && taken[3] === taken[6], "the same loop comes round again, not a new one")
        #expect(group.startedLoops.count == 3)
        #expect(ThreadNames.current.count(prefix: "test.grp.rr.") == 3, "\(ThreadNames.current.summary)")

        let clamped = LoopGroup(count: 0, name: "test.grp.one")
        defer { clamped.shutdown() }
        #expect(clamped.count == 1)
        #expect(clamped.next() === clamped.next())
    }

    @Test("shutdown stops every loop and their threads end; a second shutdown is a no-op")
    func shutdownIsIdempotent() async throws {
        let group = LoopGroup(count: 2, name: "test.grp.stop")
        let loops = [group.next(), group.next()]
        #expect(try loops.allSatisfy { loop in try loop.sync { loop.inLoop } })
        group.shutdown()
        group.shutdown()
        for loop in loops {
            #expect(!loop.inLoop)
            await #expect(throws: EventLoop.Stopped.self) { try await loop.submit { 1 } }
        }
        try await pollUntil(timeout: .seconds(5), "the group's threads to end") {
            ThreadNames.current.count(prefix: "test.grp.stop.") == 0
        }
        let late = group.next()
        await #expect(throws: EventLoop.Stopped.self, "a loop handed out after shutdown is stopped") { try await late.submit { 1 } }
    }

    @Test("an engine on the group takes the group's loops in turn and leaves them running after its own shutdown")
    func engineLeavesTheGroupRunning() async throws {
        let serverLoop = EventLoop(name: "test.fakejanus.group")
        let server = try LocalWebSocketServer(loop: serverLoop, protocols: ["janus-protocol"], respond: FakeJanusRoom.respond)
        let group = LoopGroup(count: 2, name: "test.grp.eng")
        defer {
            server.stop()
            serverLoop.shutdown()
            group.shutdown()
        }
        let join = RoomJoin(endpoint: .janus(server: server.url, room: "lobby"), display: "group-test", iceAddresses: ["127.0.0.1"])
        var stageJoin = join
        stageJoin.endpoint = .janus(server: server.url, room: "stage")
        let first = AgentEngine(group: group)
        let second = AgentEngine(group: group)
        let lobby = try await first.join(join)
        let stage = try await second.join(stageJoin)
        #expect(lobby.loop.name == "test.grp.eng.0" && stage.loop.name == "test.grp.eng.1", "\(lobby.loop.name) \(stage.loop.name)")
        #expect(group.startedLoops.map(\.name) == ["test.grp.eng.0", "test.grp.eng.1"])

        await first.shutdown()
        #expect(try await lobby.loop.submit { lobby.loop.inLoop }, "the engine's shutdown stopped a loop of the group")
        #expect(try await stage.loop.submit { stage.loop.inLoop })
        await second.shutdown()
        #expect(try await stage.loop.submit { stage.loop.inLoop })
        #expect(ThreadNames.current.count(prefix: "test.grp.eng.") == 2, "\(ThreadNames.current.summary)")
    }
}
