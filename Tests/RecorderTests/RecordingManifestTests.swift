import Agent
import Foundation
import Testing

@testable import Recorder

@Suite struct RecordingManifestTests {
    static let started = Date(timeIntervalSince1970: 1_796_035_327.25)  // 2026-11-30T10:42:07.250Z

    static func sample(ended: Bool = false) -> RecordingManifest {
        var manifest = RecordingManifest(room: "demo", server: "ws://10.77.0.2:8188/", startedAt: started,
                                         formats: RecordingFormats.default.names)
        var stats = RecordingManifest.Stats()
        stats.audio = .init(packets: 250, lost: 2, recovered: 1, nacks: 3, plis: 0, keyframes: 0, firstFrameMs: 40)
        stats[.video].packets = 900
        stats[.video].plis = 2
        let mapping = RecordingManifest.RTPNTPMapping(rtp: 96_000, ntp: 0xE8F1_2345_8000_0000, wallMs: 1_796_035_328_000,
                                                      source: .senderReport)
        let webm = RecordingManifest.File(path: "Alice_B_.webm", format: "webm", startMs: 1480, tracks: [
            .init(kind: .audio, codec: "opus", channels: 2, sampleRate: 48_000, ssrc: 1234, rtpNtpMapping: mapping),
            .init(kind: .video, codec: "vp8"),
        ])
        let wav = RecordingManifest.File(path: "Alice_B_.wav", format: "wav", startMs: 0,
                                         tracks: [.init(kind: .audio, codec: "pcm_s16le", channels: 1, sampleRate: 48_000)])
        manifest.participants = [
            .init(id: "4711", display: "Alice B.", name: "Alice_B_", joinedMs: 1400, files: [webm, wav], stats: stats,
                  gaps: [.init(kind: .audio, startMs: 0, endMs: 1480, reason: "not_joined")]),
            .init(id: "4712", display: "bob", name: "bob", joinedMs: 0, leftMs: 9000),
        ]
        manifest.files = [.init(path: "data.jsonl", format: "data", startMs: 0)]
        if ended {
            manifest.state = .finished
            manifest.endedAt = started.addingTimeInterval(60)
            manifest.durationMs = 60_000
            manifest.participants[0].files[0].tracks[1].width = 640
            manifest.participants[0].files[0].tracks[1].height = 480
            manifest.connection = Self.relayed
        }
        return manifest
    }

    /// Through the lab's TURN server: a relayed pair, as `agentd record --ice-policy relay` sees it.
    static let relayed: RecordingManifest.Connection = {
        var connection = RecordingManifest.Connection(
            ice: ICEConfiguration(
                addresses: ["10.77.2.1"], servers: [ICEServer(scheme: .turn, host: "10.77.2.2", port: 3478, transport: .udp)],
                policy: .relay))
        let pair = ICESelectedPair(
            local: .init(type: .relay, address: "10.77.0.2", port: 49288, transport: "UDP"),
            remote: .init(type: .host, address: "10.77.0.2", port: 58286))
        connection.selectedPair = RecordingManifest.SelectedPair(pair, atMs: 195)
        connection.pairsSelected = 1
        return connection
    }()

    static func json(_ manifest: RecordingManifest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: manifest.encodedJSON()) as? [String: Any])
    }

    static func missing(_ keys: Set<String>, in object: Any?) throws -> Set<String> {
        let dictionary = try #require(object as? [String: Any])
        return keys.subtracting(dictionary.keys)
    }

    @Test func everyContractKeyIsPresentWhileRecording() throws {
        let root = try Self.json(Self.sample())
        #expect(try Self.missing(["version", "room", "server", "started_at", "ended_at", "participants"], in: root) == [])
        #expect(root["version"] as? Int == 1)
        #expect(root["ended_at"] is NSNull)
        #expect(root["state"] as? String == "recording")
        let participants = try #require(root["participants"] as? [[String: Any]])
        #expect(participants.count == 2)
        for participant in participants {
            #expect(try Self.missing(["id", "display", "name", "joined_ms", "left_ms", "files", "stats"], in: participant) == [])
            let stats = try #require(participant["stats"] as? [String: Any])
            for kind in ["audio", "video"] {
                #expect(try Self.missing(["packets", "lost", "recovered", "nacks", "plis", "keyframes", "first_frame_ms"],
                                         in: stats[kind]) == [], "\(kind)")
            }
        }
        #expect(participants[0]["left_ms"] is NSNull)
        #expect(participants[1]["left_ms"] as? Int == 9000)
        let alice = participants[0]
        let aliceStats = try #require(alice["stats"] as? [String: [String: Any]])
        #expect(aliceStats["audio"]?["first_frame_ms"] as? Int == 40)
        #expect(aliceStats["audio"]?["nacks"] as? Int == 3)
        #expect(aliceStats["video"]?["first_frame_ms"] is NSNull)
        #expect(aliceStats["video"]?["plis"] as? Int == 2)
        let files = try #require(alice["files"] as? [[String: Any]])
        #expect(files.count == 2)
        for file in files {
            #expect(try Self.missing(["path", "format", "start_ms", "tracks"], in: file) == [])
        }
        #expect(files[0]["start_ms"] as? Int == 1480)
        let tracks = try #require(files[0]["tracks"] as? [[String: Any]])
        #expect(try Self.missing(["kind", "codec"], in: tracks[0]) == [])
        #expect(tracks[0]["width"] == nil)  // audio: no size
        #expect(try Self.missing(["kind", "codec", "width", "height"], in: tracks[1]) == [])
        #expect(tracks[1]["width"] is NSNull)  // video before its first keyframe
        let mapping = try #require(tracks[0]["rtp_ntp_mapping"] as? [String: Any])
        #expect(Set(mapping.keys) == ["rtp", "ntp", "wall_ms", "source"])
        #expect(mapping["source"] as? String == "sr")
    }

    @Test func keysAreSnakeCaseEverywhere() throws {
        var keys: Set<String> = []
        func walk(_ value: Any) {
            if let dictionary = value as? [String: Any] {
                for (key, child) in dictionary { keys.insert(key); walk(child) }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try Self.json(Self.sample(ended: true)))
        let snake = try Regex("^[a-z0-9]+(_[a-z0-9]+)*$")
        #expect(keys.filter { $0.wholeMatch(of: snake) == nil } == [])
        // The whole set, so a rename shows up here.
        #expect(keys == [
            "version", "state", "room", "server", "started_at", "ended_at", "duration_ms", "formats", "participants",
            "files", "id", "ids", "display", "name", "joined_ms", "left_ms", "stats", "gaps", "resolution_changes", "path",
            "format", "start_ms", "tracks", "kind", "codec", "width", "height", "channels", "sample_rate", "ssrc",
            "rtp_ntp_mapping", "rtp", "ntp", "wall_ms", "source", "audio", "video", "packets", "lost", "recovered",
            "nacks", "plis", "keyframes", "first_frame_ms", "end_ms", "reason",
            "connection", "ice_policy", "ice_servers", "selected_pair", "pairs_selected", "local_type", "local_address",
            "remote_type", "remote_address", "transport", "relayed", "at_ms",
        ])
    }

    @Test("connection: the ICE policy and servers joined with, and the selected pair, null until there is one")
    func connection() throws {
        let root = try Self.json(Self.sample(ended: true))
        let connection = try #require(root["connection"] as? [String: Any])
        #expect(connection["ice_policy"] as? String == "relay")
        #expect(connection["ice_servers"] as? [String] == ["turn:10.77.2.2:3478?transport=udp"])
        #expect(connection["pairs_selected"] as? Int == 1)
        let pair = try #require(connection["selected_pair"] as? [String: Any])
        #expect(pair["local_type"] as? String == "relay" && pair["local_address"] as? String == "10.77.0.2:49288")
        #expect(pair["remote_type"] as? String == "host" && pair["remote_address"] as? String == "10.77.0.2:58286")
        #expect(pair["transport"] as? String == "udp" && pair["relayed"] as? Bool == true && pair["at_ms"] as? Int == 195)

        let fresh = try #require(try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(RecordingManifest.Connection(ice: ICEConfiguration(addresses: ["10.77.0.1"])))) as? [String: Any])
        #expect(fresh["selected_pair"] is NSNull && fresh["ice_policy"] as? String == "all" && fresh["pairs_selected"] as? Int == 0)
        #expect(fresh["ice_servers"] as? [String] == [])
    }

    @Test func datesAreISO8601InUTC() throws {
        let root = try Self.json(Self.sample(ended: true))
        #expect(root["started_at"] as? String == "2026-11-30T10:42:07.250Z")
        #expect(root["ended_at"] as? String == "2026-11-30T10:43:07.250Z")
        #expect(RecordingManifest.parseDate("2026-11-30T10:42:07Z") == Date(timeIntervalSince1970: 1_796_035_327))
        #expect(RecordingManifest.parseDate("yesterday") == nil)
    }

    @Test func roundTripsAndRejectsABadDate() throws {
        for manifest in [Self.sample(), Self.sample(ended: true)] {
            #expect(try RecordingManifest.decode(manifest.encodedJSON()) == manifest)
        }
        let bad = #"{"version":1,"room":"r","server":"s","started_at":"soon","ended_at":null,"participants":[]}"#
        #expect(throws: DecodingError.self) { try RecordingManifest.decode(Data(bad.utf8)) }
    }
}
