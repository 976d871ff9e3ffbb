import Agent
import Foundation
import TestSupport
import Testing

@testable import agentd

/// The ICE options every joining command takes (`--ice-server`, `--ice-username`,
/// `--ice-credential`, `--ice-policy`, beside `--ice-allow`), their environment variables, and
/// that neither TURN secret ever reaches a line agentd prints.
@Suite struct ICEOptionsTests {
    static let secret = "s3cret-turn-pass"

    @Test("--ice-server repeats (values joined as a list); each option falls back to its environment variable")
    func parsing() throws {
        let parser = ArgumentParser(
            spec: RecordCommand.spec,
            environment: ["AGENTD_ICE_SERVER": "turn:10.0.0.9", "AGENTD_ICE_USERNAME": "env-user", "AGENTD_ICE_CREDENTIAL": Self.secret,
                          "AGENTD_ICE_POLICY": "relay"])
        let repeated = try parser.parse(["--server", "ws://h/", "--room", "r", "--ice-server", "turn:10.77.2.2", "--ice-server=stun:10.77.2.2"])
        #expect(repeated.value("ice-server") == "turn:10.77.2.2,stun:10.77.2.2")
        #expect(repeated.value("ice-username") == "env-user" && repeated.value("ice-credential") == Self.secret)
        let fromEnvironment = try parser.parse(["--server", "ws://h/", "--room", "r", "--ice-policy", "all"])
        #expect(fromEnvironment.value("ice-server") == "turn:10.0.0.9" && fromEnvironment.value("ice-policy") == "all")
        #expect(throws: UsageError.repeatedOption("ice-policy")) {
            try parser.parse(["--server", "ws://h/", "--room", "r", "--ice-policy", "all", "--ice-policy", "relay"])
        }
    }

    @Test("the settings become one patch: addresses, servers, policy, and the credentials beside them")
    func patch() throws {
        let patch = try SharedOptions.ice(
            allow: "127.0.0.1", servers: "turn:10.77.2.2:3478?transport=tcp, stun:10.77.2.2", username: "agentd", credential: Self.secret,
            policy: "RELAY")
        let expected = ICEConfiguration(
            addresses: ["127.0.0.1"],
            servers: [ICEServer(scheme: .turn, host: "10.77.2.2", transport: .tcp), ICEServer(scheme: .stun, host: "10.77.2.2")],
            policy: .relay)
        #expect(patch.ice == expected)
        #expect(patch.credentials.iceServer == ICEServerCredentials(username: "agentd", credential: Self.secret))
        #expect(!"\(patch)".contains(Self.secret), "\(patch)")
        let plain = try SharedOptions.ice(allow: "127.0.0.1", servers: nil, username: nil, credential: nil, policy: nil)
        #expect(plain.ice == ICEConfiguration(addresses: ["127.0.0.1"]) && plain.credentials.iceServer == nil)
    }

    /// What `SharedOptions.ice` threw, as the CLI prints it.
    static func failure(servers: String? = nil, username: String? = nil, credential: String? = nil, policy: String? = nil) -> String {
        do {
            _ = try SharedOptions.ice(allow: "127.0.0.1", servers: servers, username: username, credential: credential, policy: policy)
            return "no error"
        } catch let failure as CommandFailure {
            return "\(failure.code) \(failure.line)"
        } catch {
            return "\(error)"
        }
    }

    @Test("bad settings are usage errors (exit 2) that name the option and show no secret")
    func refusals() {
        let cases: [(String, String)] = [
            (Self.failure(servers: "turn:turn.example.com"),
             "usage agentd: error: --ice-server: 'turn.example.com' is a name; give the server's IPv4 address (agentd does no DNS lookups) "
                + "(e.g. --ice-server 'turn:10.77.2.2:3478?transport=udp')"),
            (Self.failure(servers: "turn:agentd:\(Self.secret)@10.77.2.2"),
             "usage agentd: error: --ice-server: no credentials in the URI; give them with --ice-username and --ice-credential "
                + "(e.g. --ice-server 'turn:10.77.2.2:3478?transport=udp')"),
            (Self.failure(servers: "turns:10.77.2.2", username: "u", credential: Self.secret),
             "usage agentd: error: --ice-server: turns: (TLS to the server) is not supported; use turn: with ?transport=udp or tcp "
                + "(e.g. --ice-server 'turn:10.77.2.2:3478?transport=udp')"),
            (Self.failure(servers: "turn:10.77.2.2"),
             "usage agentd: error: ICE servers: a turn: server needs a username and a credential "
                + "(give --ice-username and --ice-credential, or AGENTD_ICE_USERNAME and AGENTD_ICE_CREDENTIAL)"),
            (Self.failure(policy: "relay"),
             "usage agentd: error: ICE servers: the relay policy needs a turn: server (give --ice-server turn:IP:PORT with --ice-policy relay)"),
            (Self.failure(servers: "turn:10.77.2.2", credential: Self.secret),
             "usage agentd: error: --ice-credential without --ice-username (give both, or neither)"),
            (Self.failure(servers: "turn:10.77.2.2", username: "u"), "usage agentd: error: --ice-username without --ice-credential (give both, or neither)"),
            (Self.failure(servers: "turn:10.77.2.2", username: "u", credential: "a\u{0}b"),
             "usage agentd: error: ICE servers: unusable TURN credentials: the credential contains a NUL byte "
                + "(give --ice-username and --ice-credential, or AGENTD_ICE_USERNAME and AGENTD_ICE_CREDENTIAL)"),
        ]
        for (line, expected) in cases {
            #expect(line == expected)
            #expect(!line.contains(Self.secret), "\(line)")
        }
        #expect(Self.failure(policy: "direct") == "\(UsageError.invalidValue(option: "ice-policy", value: "direct", expected: "all or relay"))")
    }

    @Test("record, play, bot and serve list every ICE option in their help, with its environment variable")
    func help() async {
        for command in ["record", "play", "bot", "serve"] {
            let output = CapturedOutput()
            #expect(await output.tool().run([command, "--help"]) == .ok)
            for (option, variable) in [("--ice-allow LIST", "AGENTD_ICE_ALLOW"), ("--ice-server URL", "AGENTD_ICE_SERVER"),
                                       ("--ice-username NAME", "AGENTD_ICE_USERNAME"), ("--ice-credential SECRET", "AGENTD_ICE_CREDENTIAL"),
                                       ("--ice-policy POLICY", "AGENTD_ICE_POLICY")] {
                #expect(output.stdout.contains("[\(option)]") && output.stdout.contains(variable), "\(command) help lacks \(option)")
            }
        }
    }

    @Test("under --ice-policy relay a TURN server that gives no relay fails record and play with exit 4 before any signaling, naming no secret")
    func noRelayExitsFour() async throws {
        let scratch = try ScratchDirectory("ice-relay")
        // A port nothing listens on once the listener is gone: the TCP connection is refused at once.
        let port = try { () throws -> UInt16 in try SilentListener().port }()
        let ice = ["--ice-allow", "lo", "--ice-server", "turn:127.0.0.1:\(port)?transport=tcp", "--ice-username", "agentd",
                   "--ice-policy", "relay"]
        // Nothing listens at ws://127.0.0.1:1/ either: a signaling attempt would say so instead.
        let server = ["--server", "ws://127.0.0.1:1/", "--room", "r"]
        let wav = try await GeneratedSamples.toneWAV(in: scratch, seconds: 1)
        for command in [["record"] + server + ["--out", scratch.path("rec")], ["play"] + server + ["--display", "p", "--audio", wav]] {
            let output = CapturedOutput()
            let code = await output.tool(environment: ["AGENTD_ICE_CREDENTIAL": Self.secret]).run(command + ice)
            #expect(code == .connectionFailed, "\(command[0]): \(output.stderr)")
            #expect(output.stderr.hasPrefix("agentd: error: no TURN relay (--ice-policy relay): no relayed candidate from turn:127.0.0.1:"),
                    "\(command[0]): \(output.stderr)")
            #expect(!output.stderr.contains(Self.secret) && !output.stdout.contains(Self.secret))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("rec")), "a failed join left its directory")
    }
}
