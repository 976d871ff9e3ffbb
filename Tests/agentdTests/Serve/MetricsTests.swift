import Foundation
import Testing

import Agent

@testable import agentd

/// /metrics in Prometheus text format, parsed line by line.
@Suite("ServeMetrics", .serialized)
struct MetricsTests {
    @Test("/metrics parses as Prometheus text: HELP and TYPE before samples, jobs by state, CPU and RSS")
    func metricsParse() async throws {
        let daemon = try InProcessDaemon()
        let client = daemon.client
        let running = try #require(try await client.post("/v1/bots", #"{"recipe": {}}"#).json?["id"]?.stringValue)
        _ = try await client.waitForJob(running, in: ["running"], within: .seconds(5))
        let failing = try #require(try await client.post("/v1/bots", #"{"recipe": {"fail": "x"}}"#).json?["id"]?.stringValue)
        _ = try await client.waitForJob(failing, in: ["failed"], within: .seconds(5))

        let reply = try await client.get("/metrics")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"]?.hasPrefix("text/plain") == true)
        let metrics = try PrometheusText(parsing: reply.text)
        #expect(metrics.value("agentd_jobs", ["state": "running"]) == 1)
        #expect(metrics.value("agentd_jobs", ["state": "failed"]) == 1)
        #expect(metrics.value("agentd_jobs", ["state": "done"]) == 0)
        #expect(metrics.value("agentd_jobs_created_total", ["kind": "bot"]) == 2)
        #expect(metrics.types["agentd_jobs"] == "gauge")
        #expect(metrics.types["agentd_received_packets_total"] == "counter")
        let rss = try #require(metrics.value("process_resident_memory_bytes"))
        #expect(rss > 1_000_000, "RSS \(rss)")
        #expect((metrics.value("process_cpu_seconds_total") ?? 0) > 0)
        for name in ["agentd_participants", "agentd_received_bytes_total", "agentd_received_packets_lost_total", "agentd_nacks_sent_total",
                     "agentd_plis_sent_total", "agentd_writer_queue_drops_total"] {
            #expect(metrics.value(name) != nil, "no \(name)")
        }
        await daemon.shutdown()
    }

    @Test("the event streams' coalesced and dropped counts reach /metrics, summed over ended and running jobs")
    func eventCounts() throws {
        var jobs = JobMetrics()
        jobs.noteEnded(JobProgress(events: EventBufferCounts(coalesced: 7, dropped: 1)))
        jobs.add(active: JobProgress(participants: 2, events: EventBufferCounts(coalesced: 5, dropped: 0)))
        let metrics = try PrometheusText(parsing: DaemonMetrics.render(jobs: jobs, process: nil))
        #expect(metrics.value("agentd_events_coalesced_total") == 12)
        #expect(metrics.value("agentd_events_dropped_total") == 1)
        #expect(metrics.types["agentd_events_coalesced_total"] == "counter")
        #expect(metrics.types["agentd_events_dropped_total"] == "counter")
    }

    @Test("the worker lanes' drops reach /metrics")
    func laneDrops() throws {
        let metrics = try PrometheusText(parsing: DaemonMetrics.render(jobs: JobMetrics(), process: nil, laneDrops: 42))
        #expect(metrics.value("agentd_worker_lane_drops_total") == 42)
        #expect(metrics.types["agentd_worker_lane_drops_total"] == "counter")
    }

    @Test("ProcessStats reads utime+stime and resident pages the way proc(5) lays them out")
    func procParsing() {
        let stat = "4242 (agentd (serve)) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 150 0 0 20 0 9 0 100 200000000 3000"
        let parsed = ProcessStats.parse(stat: stat, statm: "50000 3000 700 1 0 9000 0", ticksPerSecond: 100, pageSize: 4096)
        #expect(parsed == ProcessStats(cpuSeconds: 4.0, residentBytes: 3000 * 4096))
        #expect(ProcessStats.parse(stat: "garbage", statm: "", ticksPerSecond: 100, pageSize: 4096) == nil)
    }
}

/// The samples and types of a Prometheus text exposition, with the format's rules checked:
/// every sample's metric has a TYPE line before it, and each line is a comment or `name{labels} value`.
struct PrometheusText {
    struct Failure: Error, CustomStringConvertible { let description: String }

    private(set) var types: [String: String] = [:]
    private(set) var samples: [(name: String, labels: [String: String], value: Double)] = []

    init(parsing text: String) throws {
        var helped: Set<String> = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# HELP ") {
                helped.insert(String(line.dropFirst(7).split(separator: " ")[0]))
                continue
            }
            if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                guard parts.count == 2, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[1]) else {
                    throw Failure(description: "bad TYPE line: \(line)")
                }
                types[String(parts[0])] = String(parts[1])
                continue
            }
            guard !line.hasPrefix("#") else { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw Failure(description: "bad sample line: \(line)")
            }
            let series = String(line[..<space])
            var name = series
            var labels: [String: String] = [:]
            if let brace = series.firstIndex(of: "{") {
                guard series.hasSuffix("}") else { throw Failure(description: "bad labels: \(line)") }
                name = String(series[..<brace])
                for pair in series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",") {
                    let keyValue = pair.split(separator: "=", maxSplits: 1)
                    guard keyValue.count == 2, keyValue[1].hasPrefix("\""), keyValue[1].hasSuffix("\"") else {
                        throw Failure(description: "bad label \(pair) in \(line)")
                    }
                    labels[String(keyValue[0])] = String(keyValue[1].dropFirst().dropLast())
                }
            }
            guard name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) != nil else {
                throw Failure(description: "bad metric name: \(line)")
            }
            guard types[name] != nil, helped.contains(name) else { throw Failure(description: "\(name) has no TYPE/HELP before its sample") }
            samples.append((name, labels, value))
        }
    }

    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }
}
