import Agent
import Foundation
import Testing

@testable import AgentdCore
@testable import Recorder

/// `POST /v1/recordings`'s `continue`: a directory that holds the room's recording is continued;
/// `continue` needs `out`; a directory it cannot continue is a 409 and left as it was.
@Suite struct RecordingJobBodyContinueTests {
    static func settings(_ root: String) -> ServeSettings {
        ServeSettings(outputRoot: root, maxJobs: 1, ice: RoomJoinPatch())
    }

    static func body(_ fields: String) throws -> JSONValue {
        try JSONValue(parsing: #"{"server": "ws://127.0.0.1:8188/", "room": "demo""# + fields + "}")
    }

    @Test func continueNeedsOutAndABoolean() throws {
        let settings = Self.settings(NSTemporaryDirectory())
        #expect(RecordingJobBody.keys.contains("continue"))
        #expect(throws: APIError.badRequest("continue needs out: the directory of the recording to continue")) {
            try RecordingJobBody.request(try Self.body(#", "continue": true"#), settings: settings)
        }
        #expect(throws: APIError.badRequest("continue must be true or false")) {
            try RecordingJobBody.request(try Self.body(#", "out": "x", "continue": "yes""#), settings: settings)
        }
        #expect(try RecordingJobBody.request(try Self.body(#", "continue": false"#), settings: settings).existing == .refuse)
        // A worker asks for it without the body's field.
        #expect(try RecordingJobBody.request(try Self.body(#", "out": "w""#), settings: settings, existing: .continueRecording).continues)
    }

    @Test func anExistingRecordingOfTheRoomIsContinuedAnotherRoomsIsA409() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("continue-body-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = RecordingDirectory(path: root + "/rec")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let manifest = RecordingManifest(room: "demo", server: "ws://x/", startedAt: Date().addingTimeInterval(-30))
        try manifest.encodedJSON().write(to: URL(fileURLWithPath: directory.filePath("manifest.json")))

        // Without continue, the existing directory is a 409 at once.
        #expect(throws: APIError.self) { try RecordingJobBody.request(try Self.body(#", "out": "rec""#), settings: Self.settings(root)) }
        let request = try RecordingJobBody.request(try Self.body(#", "out": "rec", "continue": true"#), settings: Self.settings(root))
        #expect(request.existing == .continueRecording)
        try request.prepareOutput()

        var other = manifest
        other.room = "elsewhere"
        try other.encodedJSON().write(to: URL(fileURLWithPath: directory.filePath("manifest.json")))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.filePath("manifest.json")))
        let refused = try RecordingJobBody.request(try Self.body(#", "out": "rec", "continue": true"#), settings: Self.settings(root))
        do {
            try refused.prepareOutput()
            Issue.record("another room's recording was continued")
        } catch {
            #expect(error == .cannotContinue(.otherRoom(path: directory.path, room: "elsewhere", expected: "demo")))
            let answer = RecordingJobBody.outputError(error, out: "rec")
            #expect(answer.status == 409 && answer.message.hasPrefix("out rec cannot be continued"), "\(answer.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["manifest.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.filePath("manifest.json"))) == bytes)
    }
}
