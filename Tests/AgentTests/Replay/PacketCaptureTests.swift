import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentSession
@testable import AgentWire

/// A capture written by ``PacketCapture`` reads back as it was taken: packets, offsets, sender
/// reports, route changes and names; it never overwrites, and a hostile description is refused.
@Suite struct PacketCaptureTests {
    static let audio = SubscriptionRouter.Route(mid: "0", participantID: "111", kind: .audio, codec: .opus, clockRate: 48_000,
                                                ssrcs: [0xA0A0], midExtensionID: 4, audioLevelExtensionID: 1)
    static let video = SubscriptionRouter.Route(mid: "1", participantID: "111", kind: .video, codec: .vp8, clockRate: 90_000, ssrcs: [0xB0B0])

    @Test("packets, sender reports, routes and names come back with their offsets")
    func roundTrip() throws {
        let scratch = try ScratchDirectory("capture")
        let capture = try PacketCapture(directory: scratch.directory.path)
        capture.routed([], at: .ms(0))
        capture.routed([Self.audio, Self.video], at: .ms(5))
        capture.routed([Self.video, Self.audio], at: .ms(6))  // the same set: no change recorded
        capture.participant(id: "111", display: "alice")
        var sent: [[UInt8]] = []
        for index in 0..<3000 {
            let packet = try RTPTestPacket.make(sequence: UInt16(index), timestamp: UInt32(index * 960), ssrc: 0xA0A0,
                                                payload: [UInt8](repeating: UInt8(index & 0xFF), count: 100 + index % 50))
            sent.append(packet)
            packet.withUnsafeBytes { capture.received(rtp: $0, at: .ms(10 + Int64(index) * 20)) }
        }
        let report = SenderReport(ssrc: 0xA0A0, ntpTime: 0xE000_0000_8000_0000, rtpTime: 96_000, packetCount: 100, octetCount: 10_000)
        capture.received(senderReport: report, at: .ms(60_100))
        let written = try capture.finish()
        #expect(written.packets == 3001 && written.dropped == 0)
        #expect(throws: CaptureError.self) { try PacketCapture(directory: scratch.directory.path) }

        let session = try CapturedSession.load(directory: scratch.directory.path)
        #expect(session.description == written)
        #expect(session.description.startedAtNanoseconds == MediaInstant.ms(0).wallNanoseconds)
        #expect(session.description.routeChanges.map(\.atMilliseconds) == [0, 5])
        #expect(try session.description.routeChanges[1].routes.map { try $0.route() } == [Self.audio, Self.video])
        #expect(session.description.participants == [.init(id: "111", display: "alice")])
        #expect(session.records.count == 3001)
        #expect(session.records.prefix(3000).map(\.bytes) == sent)
        #expect(session.records.prefix(3000).enumerated().allSatisfy { $0.element.offsetMilliseconds == UInt32(10 + $0.offset * 20) && !$0.element.isRTCP })
        let last = try #require(session.records.last)
        #expect(last.isRTCP && last.offsetMilliseconds == 60_100)
        let parsed = try last.bytes.withUnsafeBytes { try RTCPPacket.parseCompound($0) }
        #expect(parsed == [.senderReport(report)])
        #expect(session.durationMilliseconds == 60_100)
    }

    @Test("a capture that saw no packet is a header and an empty replay; a discarded one leaves no file")
    func emptyAndDiscarded() throws {
        let scratch = try ScratchDirectory("capture-empty")
        let capture = try PacketCapture(directory: scratch.directory.path)
        capture.routed([Self.audio], at: .ms(0))
        try capture.finish()
        let session = try CapturedSession.load(directory: scratch.directory.path)
        #expect(session.records.isEmpty && session.description.routeChanges.count == 1)

        let other = try ScratchDirectory("capture-discard")
        let discarded = try PacketCapture(directory: other.directory.path)
        discarded.routed([Self.audio], at: .ms(0))
        discarded.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.directory.path) == [])
    }

    @Test("a description that is not one is refused with the reason", arguments: [
        #"{}"#,
        #"{"version":2,"started_at_ns":0,"route_changes":[],"participants":[],"packets":0,"dropped":0}"#,
        #"{"version":1,"started_at_ns":0,"route_changes":[{"at_ms":5,"routes":[]},{"at_ms":1,"routes":[]}],"participants":[],"packets":0,"dropped":0}"#,
        #"{"version":1,"started_at_ns":0,"route_changes":[{"at_ms":0,"routes":[{"mid":"0","participant_id":"p","kind":"audio","codec":"mp3","clock_rate":48000,"ssrcs":[]}]}],"participants":[],"packets":0,"dropped":0}"#,
        #"{"version":1,"started_at_ns":0,"route_changes":[{"at_ms":0,"routes":[{"mid":"0","participant_id":"p","kind":"audio","codec":"opus","clock_rate":0,"ssrcs":[]}]}],"participants":[],"packets":0,"dropped":0}"#,
        #"{"version":1,"started_at_ns":0,"route_changes":[],"participants":[{"id":"","display":"x"}],"packets":0,"dropped":0}"#,
        #"{"version":1,"started_at_ns":0,"route_changes":[{"at_ms":9223372036854775807,"routes":[]}],"participants":[],"packets":0,"dropped":0}"#,
        #"{"version":1,"started_at_ns":9223372036854775807,"route_changes":[],"participants":[],"packets":0,"dropped":0}"#,
        "[" + String(repeating: "[", count: 5000),
    ])
    func hostileDescriptions(_ text: String) throws {
        let scratch = try ScratchDirectory("capture-hostile")
        try Data(text.utf8).write(to: URL(fileURLWithPath: scratch.path(CaptureDescription.fileName)))
        #expect(throws: CaptureError.self) { try CaptureDescription.read(directory: scratch.directory.path) }
    }
}
