import Agent
import Foundation
import TestSupport
import Testing

/// Against the real Janus in the lab (scripts/lab up). Skipped when the lab is down unless
/// AGENTD_REQUIRE_LAB is set. Each test uses a fresh room and cleans up on every path.
@Suite("JanusInterop", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct JanusInteropTests {
    /// Connects, creates a session and a VideoRoom handle, runs `body`, then always leaves,
    /// detaches, destroys the session and closes the socket.
    private func withVideoRoom<T: Sendable>(
        _ lab: LabEnvironment, _ body: (VideoRoom, JanusSession) async throws -> T
    ) async throws -> T {
        let loop = EventLoop(name: "test.janus")
        defer { loop.shutdown() }
        let connection = JanusConnection(url: lab.janusWS, loop: loop)
        try await connection.connect(timeout: .seconds(5))
        let session: JanusSession
        do { session = try await JanusSession.create(on: connection) } catch {
            await connection.close()
            throw error
        }
        let room: VideoRoom
        do { room = try await VideoRoom.attach(to: session) } catch {
            await session.destroy()
            await connection.close()
            throw error
        }
        do {
            let result = try await body(room, session)
            await room.close()
            return result
        } catch {
            await room.close()
            throw error
        }
    }

    @Test("an audience participant sees the aiortc publisher with audio and video streams")
    func seesPublisher() async throws {
        try await SharedResourceLock.lab.withExclusive { try await checkSeesPublisher() }
    }

    private func checkSeesPublisher() async throws {
        let lab = try LabEnvironment.required()
        let repo = LabEnvironment.repoRoot
        let python = repo.appendingPathComponent(".venv/bin/python")
        let script = repo.appendingPathComponent("peers/publisher.py")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "missing \(python.path)")
        try #require(FileManager.default.fileExists(atPath: script.path), "missing \(script.path)")

        let roomID = LabEnvironment.freshRoom("interop-pub")
        let display = "aiortc-\(UInt16.random(in: 1000 ... 9999))"
        let publisher = try ChildProcess(
            python.path,
            [script.path, "--ws", lab.janusWS, "--room", roomID, "--display", display, "--create", "--duration", "30"])
        defer { publisher.terminate() }
        let ready = try await publisher.waitForLine(prefix: "READY", within: .seconds(90))
        let readyJSON = try JSONValue(parsing: String(ready.dropFirst("READY".count)))
        let publisherID = try #require(readyJSON["id"]?.idString)

        try await withVideoRoom(lab) { room, _ in
            #expect(try await room.exists(room: roomID))
            let joined = try await room.joinAsParticipant(room: roomID, display: "swift-audience")
            #expect(joined.room == roomID)
            #expect(!joined.id.isEmpty && joined.id != publisherID)
            #expect(joined.privateID != nil)

            let seen = try #require(joined.publishers.first { $0.display == display }, "publisher \(display) not in \(joined.publishers)")
            #expect(seen.id == publisherID)
            let kinds = Set(seen.streams.filter { !$0.disabled }.map(\.type))
            #expect(kinds.isSuperset(of: ["audio", "video"]), "streams: \(seen.streams)")
            let audio = seen.streams.first { $0.type == "audio" }
            let video = seen.streams.first { $0.type == "video" }
            #expect(audio?.codec == "opus")
            #expect(["vp8", "vp9", "h264"].contains(video?.codec ?? ""), "video codec \(video?.codec ?? "none")")
            #expect(audio?.mid != nil && video?.mid != nil && audio?.mid != video?.mid)

            let participants = try await room.listParticipants(room: roomID)
            let listed = try #require(participants.first { $0.display == display })
            #expect(listed.id == publisherID)
            #expect(listed.publisher)
            let me = try #require(participants.first { $0.id == joined.id })
            #expect(!me.publisher)

            // The publisher leaving is announced as unpublished/leaving on our handle.
            let events = EventCollector(room.handle.events)
            await publisher.terminate()
            let gone = try await events.first(within: .seconds(10)) { message in
                guard let data = message.pluginData else { return false }
                switch VideoRoomEvent(pluginData: data) {
                case .unpublished(let id), .leaving(let id, _): return id == publisherID
                default: return false
                }
            }
            #expect(gone != nil)
        }
    }

    @Test("create makes exists true; joining a missing room fails with 426 no such room")
    func createExistsAndMissingRoom() async throws {
        let lab = try LabEnvironment.required()
        let roomID = LabEnvironment.freshRoom("interop-create")
        let missing = LabEnvironment.freshRoom("interop-missing")
        try await withVideoRoom(lab) { room, _ in
            #expect(try await room.exists(room: roomID) == false)
            var options = VideoRoomCreateOptions()
            options.publishers = 3
            options.description = "agentd interop"
            try await room.create(room: roomID, options: options)
            #expect(try await room.exists(room: roomID))

            do {
                try await room.create(room: roomID)
                Issue.record("second create of \(roomID) succeeded")
            } catch let error as JanusError {
                #expect(error.code == JanusError.Code.roomExists, "got \(error)")
            }

            #expect(try await room.exists(room: missing) == false)
            do {
                _ = try await room.joinAsParticipant(room: missing, display: "nobody")
                Issue.record("join of a missing room succeeded")
            } catch let error as JanusError {
                guard case .plugin(let code, _) = error else {
                    Issue.record("expected a plugin error, got \(error)")
                    return
                }
                #expect(code == JanusError.Code.noSuchRoom)
            }
            try await room.destroy(room: roomID)
            #expect(try await room.exists(room: roomID) == false)
        }
    }

    @Test("keepalive is acknowledged and unknown sessions give 458")
    func keepaliveAndSessionErrors() async throws {
        let lab = try LabEnvironment.required()
        try await withVideoRoom(lab) { _, session in
            try await session.keepaliveNow()
            do {
                _ = try await session.connection.request(.keepalive, session: session.id &+ 1)
                Issue.record("keepalive on a bogus session succeeded")
            } catch let error as JanusError {
                #expect(error.code == JanusError.Code.sessionNotFound, "got \(error)")
            }
        }
    }
}
