import Foundation
import Agent
import Testing

@testable import AgentdCore
@testable import Recorder

/// `POST /v1/recordings`'s `composite` object: what it sets, and a 400 naming the field for
/// everything else.
@Suite struct RecordingJobBodyCompositeTests {
    static func settings(_ json: String) throws -> CompositeSettings {
        try RecordingJobBody.composite(try JSONValue(parsing: json))
    }

    @Test func takesSizeRateAndLayout() throws {
        #expect(try Self.settings(#"{"size": "640x360", "fps": 30, "layout": "speaker"}"#)
            == CompositeSettings(width: 640, height: 360, framesPerSecond: 30, layout: .speaker))
        #expect(try Self.settings(#"{"fps": 5}"#) == CompositeSettings(width: 1280, height: 720, framesPerSecond: 5))
        #expect(try Self.settings("{}") == CompositeSettings())
        #expect(try RecordingJobBody.composite(nil) == CompositeSettings())
        #expect(try RecordingJobBody.composite(.null) == CompositeSettings())
        #expect(RecordingJobBody.keys.contains("composite"))
    }

    @Test(arguments: [
        (#"{"size": "641x360"}"#, "composite: size '641x360'"),
        (#"{"size": 640}"#, "size must be a non-empty string"),
        (#"{"layout": ""}"#, "layout must be a non-empty string"),
        (#"{"fps": 0}"#, "composite: frame rate '0'"),
        (#"{"fps": 12.5}"#, "composite.fps must be a whole number"),
        (#"{"fps": "15"}"#, "composite.fps must be a whole number"),
        (#"{"layout": "mosaic"}"#, "composite: layout 'mosaic'"),
        (#"{"sizes": "640x360"}"#, "composite: unknown field(s) sizes"),
        (#""1280x720""#, "composite must be an object"),
    ])
    func refusesWithAMessageNamingTheField(json: String, message: String) throws {
        let value = try JSONValue(parsing: json)
        do {
            _ = try RecordingJobBody.composite(value)
            Issue.record("\(json) accepted")
        } catch {
            #expect(error.status == 400)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func aCompositeObjectWithoutTheCompositeFormatIsABadRequest() throws {
        let settings = ServeSettings(outputRoot: NSTemporaryDirectory(), maxJobs: 1, ice: RoomJoinPatch())
        let body = try JSONValue(parsing: #"{"server": "ws://127.0.0.1:8188/", "room": "r", "formats": "webm,wav", "composite": {"fps": 30}}"#)
        #expect(throws: APIError.badRequest("composite sets room.webm, which only formats with composite writes")) {
            _ = try RecordingJobBody.request(body, settings: settings)
        }
        let with = try JSONValue(parsing: #"{"server": "ws://127.0.0.1:8188/", "room": "r", "formats": "webm,composite", "composite": {"fps": 30}}"#)
        #expect(try RecordingJobBody.request(with, settings: settings).composite.framesPerSecond == 30)
    }
}
