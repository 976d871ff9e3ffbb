import Agent
import TestSupport

/// A lab room a test creates with settings `--create` would not give it (codecs), held open for
/// the test's body and destroyed afterwards on every path.
enum LabRoom {
    static func with<T: Sendable>(_ lab: LabEnvironment, room: String, options: VideoRoomCreateOptions,
                                  _ body: () async throws -> T) async throws -> T {
        let loop = EventLoop(name: "test.lab-room")
        defer { loop.shutdown() }
        let connection = JanusConnection(url: lab.janusWS, loop: loop)
        try await connection.connect()
        let videoRoom = try await VideoRoom.attach(to: try await JanusSession.create(on: connection))
        func cleanUp() async {
            try? await videoRoom.destroy(room: room)
            await videoRoom.close()
        }
        do {
            try await videoRoom.create(room: room, options: options)
            let result = try await body()
            await cleanUp()
            return result
        } catch {
            await cleanUp()
            throw error
        }
    }
}
