import Foundation

/// The Janus test lab as the interop tests see it, read from the lab's env file.
///
/// The file (KEY=VALUE lines, written by `scripts/lab up`) is found at `$AGENTD_LAB_ENV`, else
/// `<repo>/.lab/lab.env`, else the machine-wide `/run/agentd-lab/lab.env` (the lab namespace is
/// shared by every worktree). When the lab's `scripts/lab status` is available it must say `up`:
/// with the lab down its 10.77.0.0/16 range must never be contacted.
///
/// House rule 10: interop tests skip when the lab is down, unless `AGENTD_REQUIRE_LAB` is set,
/// in which case they fail with ``Unavailable``.
public struct LabEnvironment: Sendable {
    public struct Unavailable: Error, CustomStringConvertible {
        public let reason: String
        public var description: String { "lab required (AGENTD_REQUIRE_LAB is set) but unavailable: \(reason)" }
    }

    public let values: [String: String]
    public let envFile: String

    /// `JANUS_WS`, e.g. ws://10.77.0.2:8188/.
    public var janusWS: String { values["JANUS_WS"] ?? "" }
    /// `LAB_HOST_IP`, the host side of the lab's veth.
    public var hostIP: String? { values["LAB_HOST_IP"] }

    /// The repository root, derived from this file's path (Tests/AgentTests/Support/…).
    public static var repoRoot: URL { Repository.root }

    public static var isRequired: Bool {
        let value = ProcessInfo.processInfo.environment["AGENTD_REQUIRE_LAB"] ?? ""
        return !value.isEmpty && value != "0"
    }

    /// The lab, or why it is not there.
    public static let current: Result<LabEnvironment, Unavailable> = load()

    /// True when an interop test should run: the lab is up, or it is required (and the test
    /// will then fail in ``required()``); and this is not the disruptive phase (see ``phase``).
    public static var shouldRun: Bool {
        labWanted && phase != .disruptive && phase != .latency
    }

    /// True when a test that disturbs the lab for everyone should run: a Janus restart or netem
    /// loss (`scripts/lab restart-janus`, `up --loss`). Other tests running beside it would see
    /// Janus refuse connections or lose packets, so scripts/test runs these in a phase of their
    /// own, after the others.
    public static var shouldRunDisruptive: Bool {
        labWanted && phase != .shared
    }

    /// True when a test with a latency bound should run (it needs no lab): always, except in
    /// scripts/test's shared phase, where the whole suite runs in parallel on two cores and starves
    /// the measuring client for longer than the bound (HTTPAbuse's /healthz: 116 and 139 ms over
    /// 100 ms in two CI runs). scripts/test runs these in the disruptive phase's filter, beside a
    /// few serialized suites, so the bound is still checked in every full run.
    public static var shouldRunTimed: Bool {
        phase != .shared
    }

    /// True when a lab test that bounds a latency through real peers should run: only in a full
    /// `swift test` or scripts/test's latency phase, where it runs alone. Beside the disruptive
    /// suites it would hear their netem loss, and in the shared phase the machine is too busy: a
    /// CI run's voice agent answered 5.3 s after the question, its recognizer 4.4 s behind a
    /// starved core, where a quiet run answers in 0.7 s.
    public static var shouldRunLatencyBound: Bool {
        labWanted && (phase == .all || phase == .latency)
    }

    /// Which lab tests this run takes, from `AGENTD_LAB_PHASE`: `shared` (all but the
    /// disruptive and latency-bound ones), `disruptive` (only those), `latency` (only the
    /// latency-bound lab tests), anything else or unset: all.
    public enum Phase: Sendable { case all, shared, disruptive, latency }

    public static var phase: Phase {
        switch ProcessInfo.processInfo.environment["AGENTD_LAB_PHASE"] {
        case "shared": .shared
        case "disruptive": .disruptive
        case "latency": .latency
        default: .all
        }
    }

    private static var labWanted: Bool {
        if case .success = current { return true }
        return isRequired
    }

    /// The lab, or a clear failure.
    public static func required() throws -> LabEnvironment {
        try current.get()
    }

    private static func load() -> Result<LabEnvironment, Unavailable> {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let explicit = environment["AGENTD_LAB_ENV"], !explicit.isEmpty {
            candidates = [explicit]
        } else {
            candidates = [repoRoot.appendingPathComponent(".lab/lab.env").path, "/run/agentd-lab/lab.env"]
        }
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            return .failure(Unavailable(reason: "no lab env file at \(candidates.joined(separator: " or ")) (run scripts/lab up)"))
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return .failure(Unavailable(reason: "cannot read \(path)"))
        }
        let values = keyValues(text)
        guard let ws = values["JANUS_WS"], !ws.isEmpty else {
            return .failure(Unavailable(reason: "\(path) has no JANUS_WS"))
        }
        if let status = labStatus(), status != "up" {
            return .failure(Unavailable(reason: "scripts/lab status says \(status)"))
        }
        return .success(LabEnvironment(values: values, envFile: path))
    }

    /// Output of `<repo>/scripts/lab status`, nil when the script is not in this checkout. It runs
    /// once (``current`` is a static), when the runner evaluates the tests' conditions.
    private static func labStatus() -> String? {
        let script = repoRoot.appendingPathComponent("scripts/lab")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { return nil }
        do {
            return try runToolBlocking(script.path, ["status"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            return "unknown (\(error))"
        }
    }

    /// The KEY=VALUE lines of an env file (`#` lines skipped).
    static func keyValues(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            values[String(trimmed[..<equals])] = String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    /// The values of a lab service's env file (`scripts/lab whip up`, `turn up`): the first of
    /// `<lab env file's folder>/<relative>` and `machineWide` that `accept` takes, or why none.
    static func serviceValues(
        _ relative: String, machineWide: String, hint: String, accept: ([String: String]) -> Bool
    ) -> Result<[String: String], Unavailable> {
        var candidates = [machineWide]
        if case .success(let lab) = current {
            candidates.insert(URL(fileURLWithPath: lab.envFile).deletingLastPathComponent().appendingPathComponent(relative).path, at: 0)
        }
        for path in candidates {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            let values = keyValues(text)
            if accept(values) { return .success(values) }
        }
        return .failure(Unavailable(reason: "nothing usable in \(candidates.joined(separator: " or ")) (\(hint))"))
    }

    /// A room id no other test or run uses.
    public static func freshRoom(_ prefix: String) -> String {
        "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: .min ... .max))"
    }
}
