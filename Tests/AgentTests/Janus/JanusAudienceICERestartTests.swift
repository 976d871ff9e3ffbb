import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentSession
@testable import AgentTransport

/// ICE restart of the audience's subscriber PeerConnection against the lab's Janus: signaling
/// stays up, Janus re-offers with new ICE credentials (`configure` + `"restart": true`), and
/// media resumes on the same PeerConnection (same DTLS, no rejoin).
@Suite("JanusAudienceICERestart", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct JanusAudienceICERestartTests {
    typealias Recorded = JanusAudienceInteropTests.Recorded

    /// Index of the first event after `start` matching the connection state.
    static func index(of state: ConnectionState, in recorded: Recorded, after start: Int = 0) -> Int? {
        recorded.events.withLock { events in
            events.indices.first { index in
                guard index >= start, case .connectionState(let seen, _) = events[index] else { return false }
                return seen == state
            }
        }
    }

    static func audioFrames(of id: String, in recorded: Recorded, after start: Int) -> Int {
        recorded.events.withLock { events in
            events[start...].filter { if case .frame(let frame) = $0 { frame.participantID == id && frame.kind == .audio } else { false } }.count
        }
    }

    /// Runs `body` with an audience in a fresh room with one aiortc publisher whose audio flows.
    private func withAudience(
        _ body: (JanusAudience, Recorded, String, LabEnvironment) async throws -> Void
    ) async throws {
        let lab = try LabEnvironment.required()
        let room = LabEnvironment.freshRoom("icerestart")
        let (alice, aliceID) = try await JanusAudienceInteropTests().startPublisher(lab, room: room, display: "alice", tone: 440, create: true)
        defer { alice.terminate() }
        let loop = EventLoop(name: "test.icerestart")
        defer { loop.shutdown() }
        let recorded = Recorded()
        let audience = JanusAudience.forLab(lab, room: room, loop: loop, recorded: recorded)
        try await audience.start()
        do {
            try await pollUntil(timeout: .seconds(20), "alice's audio") { recorded.frames(of: aliceID, kind: .audio).count >= 100 }
            try await body(audience, recorded, aliceID, lab)
        } catch {
            await audience.stop()
            throw error
        }
        await audience.stop()
    }

    /// Checks the recovery was an ICE restart of the same PeerConnection and media came back.
    private func expectRecoveredByICERestart(_ audience: JanusAudience, _ recorded: Recorded, aliceID: String,
                                             peerBefore: PeerConnection?) async throws {
        // The failure reaches the link's driver through its inbox: reported a moment later.
        try await pollUntil(timeout: .seconds(10), "reconnecting(1)") { Self.index(of: .reconnecting(attempt: 1), in: recorded) != nil }
        let dropped = try #require(Self.index(of: .reconnecting(attempt: 1), in: recorded))
        try await pollUntil(timeout: .seconds(30), "connected again") { Self.index(of: .connected, in: recorded, after: dropped) != nil }
        let back = try #require(Self.index(of: .connected, in: recorded, after: dropped))
        try await pollUntil(timeout: .seconds(10), "alice's audio after the restart") {
            Self.audioFrames(of: aliceID, in: recorded, after: back) >= 100
        }
        #expect(await audience.iceRestarts == 1)
        #expect(await audience.reconnects == 0)
        let peer = try #require(await audience.peer)
        #expect(peer === peerBefore, "a new PeerConnection: the link was rebuilt")
        #expect(try await audience.loop.submit { peer.iceRestarts } == 1)
        #expect(recorded.index { if case .participantLeft = $0 { true } else { false } } == nil)
    }

    /// The lab and usrsctp locks around ``withAudience(_:)``; then the failure `cause` makes,
    /// and the checks that an ICE restart recovered from it.
    private func recoverByICERestart(
        _ cause: @escaping (JanusAudience, Recorded, LabEnvironment) async throws -> Void
    ) async throws {
        try await SharedResourceLock.lab.withExclusive {
            try await SharedResourceLock.usrsctp.withShared {
                try await withAudience { audience, recorded, aliceID, lab in
                    let peerBefore = await audience.peer
                    try await cause(audience, recorded, lab)
                    try await expectRecoveredByICERestart(audience, recorded, aliceID: aliceID, peerBefore: peerBefore)
                }
            }
        }
    }

    @Test("a forced ICE restart: new credentials from Janus, same PeerConnection, media resumes")
    func forcedICERestart() async throws {
        try await recoverByICERestart { audience, _, _ in await audience.simulateMediaFailure() }
    }

    @Test("the path goes dead (UDP dropped): consent freshness fails ICE, an ICE restart brings media back")
    func deadPathRecoversByICERestart() async throws {
        try await recoverByICERestart { _, recorded, lab in
            let ports = LabFirewall.udpPorts(ownedBy: getpid(), on: lab.hostIP ?? "10.77.0.1")
            #expect(!ports.isEmpty)
            let firewall = try await LabFirewall(droppingHostPorts: ports)
            try await withCleanup {
                // RFC 7675: consent runs out 30 s after the last answer.
                try await pollUntil(timeout: .seconds(60), "the media failure") {
                    Self.index(of: .reconnecting(attempt: 1), in: recorded) != nil
                }
            } cleanup: {
                await firewall.remove()
            }
        }
    }
}

extension JanusAudience {
    /// An audience in a lab room that records every event into `recorded`.
    static func forLab(_ lab: LabEnvironment, room: String, loop: EventLoop, recorded: JanusAudienceInteropTests.Recorded) -> JanusAudience {
        JanusAudience(
            configuration: .init(server: lab.janusWS, room: room, display: "agentd-test", iceAddresses: [lab.hostIP ?? "10.77.0.1"]),
            loop: loop, sink: { recorded.append($0) })
    }
}

/// A drop rule in the lab namespace for some of our UDP ports (its own nftables table, removed
/// on every path), so one PeerConnection's path dies while signaling (TCP) and other peers go on.
struct LabFirewall {
    static let table = "agentdicetest"

    init(droppingHostPorts ports: [UInt16]) async throws {
        let set = ports.map(String.init).joined(separator: ", ")
        let rules = """
            table inet \(Self.table) {
            \tchain input { type filter hook input priority -1; policy accept; udp sport { \(set) } drop; }
            \tchain output { type filter hook output priority -1; policy accept; udp dport { \(set) } drop; }
            }
            """
        let result = try await Self.nft(["-f", "-"], input: rules)
        guard result.status == 0 else { throw ChildProcess.Failure(description: "nft: \(result.output)") }
    }

    func remove() async {
        _ = try? await Self.nft(["delete", "table", "inet", Self.table])
    }

    private static func nft(_ arguments: [String], input: String? = nil) async throws -> ToolRun {
        try await runTool("/usr/sbin/ip", ["netns", "exec", "agentd-lab", "nft"] + arguments, includeStderr: true, input: input)
    }

    /// The local ports of UDP sockets that process `pid` holds on IPv4 `address` (from
    /// /proc/net/udp and the process's socket inodes).
    static func udpPorts(ownedBy pid: Int32, on address: String) -> [UInt16] {
        let fdDirectory = "/proc/\(pid)/fd"
        let inodes = Set(((try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? []).compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + fd),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
        // /proc/net/udp writes the address as the little-endian hex of the 32-bit value.
        let octets = address.split(separator: ".").compactMap { UInt8($0) }
        guard octets.count == 4 else { return [] }
        let hexAddress = octets.reversed().map { String(format: "%02X", $0) }.joined()
        let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").dropFirst().compactMap { line -> UInt16? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, inodes.contains(String(fields[9])) else { return nil }
            let local = fields[1].split(separator: ":")
            guard local.count == 2, local[0] == hexAddress else { return nil }
            return UInt16(local[1], radix: 16)
        }
    }
}
