import AgentCore
import Foundation
import Testing

@testable import AgentdCore

/// `--max-bytes`/`max_bytes` sizes, and the API's limits with the daemon's idle default.
@Suite("RecordingLimits")
struct RecordingLimitsTests {
    @Test("byte counts: plain, K/M/G/T as powers of 1024 in either case; 1P at most")
    func bytes() {
        #expect(RecordingLimits.bytes(parsing: "1") == 1)
        #expect(RecordingLimits.bytes(parsing: "500000000") == 500_000_000)
        #expect(RecordingLimits.bytes(parsing: "800M") == 800 << 20)
        #expect(RecordingLimits.bytes(parsing: "2g") == 2 << 30)
        #expect(RecordingLimits.bytes(parsing: "3k") == 3 << 10)
        #expect(RecordingLimits.bytes(parsing: "1024T") == RecordingLimits.maximumBytes)
        #expect(RecordingLimits.bytes(parsing: "1125899906842624") == RecordingLimits.maximumBytes)
    }

    @Test("refused: empty, zero, signs, fractions, spaces, unknown suffixes, too big, overflow, non-ASCII digits",
          arguments: ["", "0", "0M", "-5", "+5", "1.5G", " 5", "5 ", "5X", "5MB", "M", "1025T", "1125899906842625",
                      "99999999999999999999", "9223372036854775807K", "١٢"])
    func refused(text: String) {
        #expect(RecordingLimits.bytes(parsing: text) == nil, "\(text)")
    }

    @Test("idle timeout: 0 is off, otherwise a job duration")
    func idleRule() {
        #expect(RecordingLimits.isValidIdleTimeout(0))
        #expect(RecordingLimits.isValidIdleTimeout(3))
        #expect(RecordingLimits.isValidIdleTimeout(JobDuration.maximumSeconds))
        for bad in [-1, JobDuration.maximumSeconds + 1, .infinity, .nan] {
            #expect(!RecordingLimits.isValidIdleTimeout(bad), "\(bad)")
        }
    }

    let settings = ServeSettings(outputRoot: NSTemporaryDirectory(), maxJobs: 1, ice: RoomJoinPatch())

    func limits(_ fields: [String: JSONValue]) throws(APIError) -> RecordingLimits {
        var body: [String: JSONValue] = ["server": "ws://127.0.0.1:1/", "room": "limits"]
        body.merge(fields) { $1 }
        return try RecordingJobBody.request(.object(body), settings: settings).limits
    }

    @Test("POST /v1/recordings: the daemon's idle timeout is 60 s unless set; 0 turns it off; caps carried")
    func apiLimits() throws {
        #expect(try limits([:]) == RecordingLimits(idleTimeout: 60))
        #expect(try limits(["idle_timeout": 0]) == RecordingLimits())
        #expect(try limits(["idle_timeout": 3.5, "max_duration": 17, "max_bytes": "2M"])
            == RecordingLimits(maxDuration: 17, maxBytes: 2 << 20, idleTimeout: 3.5))
        #expect(try limits(["max_bytes": 1000]).maxBytes == 1000)
    }

    @Test("POST /v1/recordings: a bad limit is a 400 naming the field")
    func apiLimitErrors() {
        let cases: [(String, JSONValue)] = [
            ("max_duration", 0), ("max_duration", "ten"), ("max_duration", 1e9),
            ("max_bytes", 0), ("max_bytes", -1), ("max_bytes", "1.5G"), ("max_bytes", 2.5), ("max_bytes", true),
            ("max_bytes", .integer(Int64.max)),
            ("idle_timeout", -1), ("idle_timeout", "60"), ("idle_timeout", 1e12),
        ]
        for (key, value) in cases {
            do {
                _ = try limits([key: value])
                Issue.record("\(key): \(value) was accepted")
            } catch {
                #expect(error.status == 400)
                #expect(error.message.hasPrefix("\(key) must be"), "\(key): \(error.message)")
            }
        }
    }
}
