import Foundation
import Agent
import JobQueue
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `agentd-bench workers`: the job queue's throughput in process, beside one Redis round trip;
/// with --lab, submit → joined through `agentd serve --redis` and workers, beside a plain serve.
struct WorkersBenchmark {
    let options: WorkersOptions

    func run() async throws(BenchError) {
        Console.line(MachineInfo.current().line)
        let work = try options.labOptions.makeWorkDirectory()
        defer { if !options.labOptions.keep { try? FileManager.default.removeItem(atPath: work) } }
        let redis = try await RedisChild.start(options.redisServer, logs: work)
        defer { redis.child.stop() }
        Console.line("redis: \(options.redisServer) on 127.0.0.1:\(redis.port), no persistence; every call one round trip on loopback")
        Console.line()
        try await queue(redis)
        if options.lab { try await lab(redis, work: work) }
    }

    // MARK: In process

    private func queue(_ redis: RedisChild) async throws(BenchError) {
        let url = RedisURL(host: "127.0.0.1", port: redis.port)
        let count = options.jobs
        var rows = [["step", "connections", "per second", "× one round trip", ""]]
        let client = RedisClient(url: url, name: "bench")
        let pings = try await Self.timed {
            for _ in 0..<count { _ = try await client.command(["PING"]) }
        }
        let floor = Double(count) / pings
        rows.append(["PING", "1", String(format: "%.0f", floor), "1.00", "the anchor: one Redis round trip"])
        for claimers in options.claimers {
            guard let keys = JobQueueKeys(prefix: "bench\(claimers)") else { throw BenchError("bad key prefix") }
            let submitter = JobQueue(client: RedisClient(url: url, name: "submit\(claimers)"), keys: keys)
            let submitted = try await Self.timed {
                try await submitter.prepare()
                for index in 0..<count {
                    _ = try await submitter.submit(id: "job-\(index)", kind: "recording", body: #"{"room":"r"}"#, details: "{}")
                }
            }
            let claimed = try await Self.timed {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for claimer in 0..<claimers {
                        let queue = JobQueue(client: RedisClient(url: url, name: "claimer\(claimer)"), keys: keys)
                        group.addTask { try await Self.claimAll(queue, worker: "w\(claimer)") }
                    }
                    var finished = 0
                    for try await done in group { finished += done }
                    guard finished == count else { throw BenchError("\(finished) of \(count) jobs finished") }
                }
            }
            rows.append(["submit", "1", String(format: "%.0f", Double(count) / submitted), String(format: "%.2f", Double(count) / submitted / floor),
                         "one script (EVALSHA) per job"])
            rows.append(["claim + finish", "\(claimers)", String(format: "%.0f", Double(count) / claimed),
                         String(format: "%.2f", Double(count) / claimed / floor), "XREADGROUP, claim script, finish script per job"])
        }
        Console.line("in process: \(count) jobs")
        for line in TextTable.lines(rows) { Console.line(line) }
    }

    /// Claims and finishes jobs until the stream has none for this consumer.
    private static func claimAll(_ queue: JobQueue, worker: String) async throws -> Int {
        var done = 0
        while let entry = try await queue.nextEntry(consumer: worker, block: .milliseconds(200)) {
            guard case .claimed(let claim) = try await queue.claim(id: entry.id, entry: entry.entry, worker: worker, lease: .seconds(30),
                                                                   maxAttempts: 3, reclaiming: false) else { continue }
            _ = try await queue.finish(claim, .done, maxAttempts: 3)
            done += 1
        }
        return done
    }

    private static func timed(_ body: () async throws -> Void) async throws(BenchError) -> Double {
        let start = ContinuousClock.now
        do {
            try await body()
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("\(error)")
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    // MARK: Lab

    private func lab(_ redis: RedisChild, work: String) async throws(BenchError) {
        let lab = options.labOptions
        try lab.validate(scripts: ["publisher.py"])
        Console.line()
        Console.line(lab.labLine)
        let room = "bench-workers-\(getpid())"
        let publisher = try Child(name: "publisher", executable: lab.python,
                                  arguments: ["\(lab.peers)/publisher.py", "--ws", lab.server, "--room", room, "--display", "alice", "--create",
                                              "--duration", "600", "--video", "320x240", "--fps", "15"],
                                  logPath: "\(work)/publisher.log")
        defer { publisher.stop() }
        try publisher.waitForLine(prefix: "READY", timeout: 90)
        var rows = [["deployment", "jobs", "submit → running, ms (each)", "median"]]
        let local = try await submitToRunning(room: room, work: work, redis: nil, label: "local")
        rows.append(["agentd serve", "\(local.count)", local.map { String(format: "%.0f", $0) }.joined(separator: " "), Self.median(local)])
        let queued = try await submitToRunning(room: room, work: work, redis: redis, label: "queue")
        rows.append(["serve --redis + \(options.workers) workers", "\(queued.count)", queued.map { String(format: "%.0f", $0) }.joined(separator: " "),
                     Self.median(queued)])
        Console.line("\(options.labJobs) recordings of 3 s, one after another (each submitted once the one before ended); "
            + "running = the worker (or serve) joined the room and said so")
        for line in TextTable.lines(rows) { Console.line(line) }
    }

    /// The API token of the benchmark's daemons (never printed).
    private static let token = (0..<24).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()

    private static func median(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "-" }
        return String(format: "%.0f", values.sorted()[values.count / 2])
    }

    /// Runs `serve` (with the queue and workers when `redis` is given), submits the jobs one after
    /// another and returns each one's submit → running in ms.
    private func submitToRunning(room: String, work: String, redis: RedisChild?, label: String) async throws(BenchError) -> [Double] {
        let lab = options.labOptions
        let output = "\(work)/\(label)-recordings"
        try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        var config: [String: Any] = ["output_root": output, "server": lab.server, "ice_allow": [lab.iceAllow], "api_token": Self.token]
        if let redis { config["redis"] = "redis://127.0.0.1:\(redis.port)/0" }
        let configPath = "\(work)/\(label).json"
        guard let data = try? JSONSerialization.data(withJSONObject: config), FileManager.default.createFile(atPath: configPath, contents: data) else {
            throw BenchError("cannot write \(configPath)")
        }
        let serve = try Child(name: "serve-\(label)", executable: lab.agentd,
                              arguments: ["serve", "--config", configPath, "--listen", "127.0.0.1:0"] + (redis == nil ? [] : ["--redis", "redis://127.0.0.1:\(redis?.port ?? 0)/0"]),
                              logPath: "\(work)/serve-\(label).log")
        defer { serve.stop() }
        let base = try Self.listening(serve)
        var workers: [Child] = []
        defer { workers.forEach { $0.stop() } }
        if redis != nil {
            for index in 0..<options.workers {
                let worker = try Child(name: "worker\(index)", executable: lab.agentd,
                                       arguments: ["worker", "--config", configPath, "--name", "w\(index)", "--listen", "127.0.0.1:0",
                                                   "--capacity", "1", "--costs", "recording=1,participant=0,bot=1"],
                                       logPath: "\(work)/worker\(index)-\(label).log")
                workers.append(worker)
                _ = try Self.listening(worker)
            }
        }
        var latencies: [Double] = []
        for index in 0..<options.labJobs {
            let id = "\(label)-\(index)"
            let submitted = ContinuousClock.now
            let (status, _) = try await Self.request(base + "/v1/recordings", body: #"{"id": "\#(id)", "room": "\#(room)", "duration": 3, "formats": ["webm"]}"#)
            guard status == 201 else { throw BenchError("POST /v1/recordings answered \(status) (\(serve.lastLogLine()))") }
            var running: Double?
            while ContinuousClock.now - submitted < .seconds(60) {
                let (_, job) = try await Self.request(base + "/v1/jobs/\(id)")
                let state = job["state"] as? String
                if running == nil, state == "running" || state == "done" {
                    let elapsed = ContinuousClock.now - submitted
                    running = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                }
                if state == "done" || state == "failed" { break }
                try? await Task.sleep(for: .milliseconds(running == nil ? 10 : 200))
            }
            guard let running else { throw BenchError("job \(id) never ran (\(serve.lastLogLine()))") }
            latencies.append(running)
        }
        return latencies
    }

    /// The base URL a serve or worker logged it listens on (within 20 s).
    private static func listening(_ child: Child) throws(BenchError) -> String {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let log = (try? String(contentsOfFile: child.logPath, encoding: .utf8)) ?? ""
            if let range = log.range(of: #"listening on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                return String(log[range].dropFirst("listening on ".count))
            }
            if child.exitStatus != nil { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw BenchError("\(child.name) did not listen (\(child.lastLogLine()))")
    }

    /// One HTTP request; the status and the JSON object answered (empty when none).
    private static func request(_ url: String, body: String? = nil) async throws(BenchError) -> (Int, [String: Any]) {
        guard let target = URL(string: url) else { throw BenchError("bad URL \(url)") }
        var request = URLRequest(url: target, timeoutInterval: 10)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
        } catch {
            throw BenchError("\(url): \(error.localizedDescription)")
        }
    }
}

/// A redis-server of the benchmark's own on a free loopback port, without persistence.
struct RedisChild {
    let child: Child
    let port: Int

    static func start(_ executable: String, logs: String) async throws(BenchError) -> RedisChild {
        let port: Int
        do {
            port = try LoopbackPort.free()
        } catch {
            throw BenchError("no free port: \(error)")
        }
        let child = try Child(name: "redis-server", executable: executable,
                              arguments: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                              logPath: "\(logs)/redis.log")
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: port), name: "probe", timeout: .seconds(1))
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if (try? await client.command(["PING"]))?.text == "PONG" { return RedisChild(child: child, port: port) }
            if child.exitStatus != nil { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        child.stop()
        throw BenchError("redis-server did not answer PING (\(child.lastLogLine()))")
    }
}
