import Agent

/// The /metrics page: jobs, what their rooms sent us, the writers, and the process itself.
enum DaemonMetrics {
    /// - Parameter laneDrops: work the process's worker lanes refused (``WorkerLanes/shared``).
    static func render(jobs: JobMetrics, process: ProcessStats?, laneDrops: Int = WorkerLanes.shared.dropped) -> String {
        var page = MetricsText()
        page.add("agentd_jobs", .gauge, help: "Jobs the daemon knows, by state (ended jobs are kept for a while).",
                 JobState.allCases.map { (labels: [("state", $0.rawValue)], value: Double(jobs.byState[$0] ?? 0)) })
        page.add("agentd_jobs_created_total", .counter, help: "Jobs created since the daemon started, by kind.",
                 JobKind.allCases.map { (labels: [("kind", $0.rawValue)], value: Double(jobs.created[$0] ?? 0)) })
        page.add("agentd_participants", .gauge, help: "Participants in the rooms of running jobs.", Double(jobs.participants))
        page.add("agentd_received_packets_total", .counter, help: "RTP packets received.", Double(jobs.received.packets))
        page.add("agentd_received_bytes_total", .counter, help: "RTP payload bytes received.", Double(jobs.received.bytes))
        page.add("agentd_received_packets_lost_total", .counter, help: "RTP packets lost (not recovered).", Double(jobs.received.lost))
        page.add("agentd_nacks_sent_total", .counter, help: "RTCP NACKs sent.", Double(jobs.received.nacks))
        page.add("agentd_plis_sent_total", .counter, help: "RTCP PLIs sent.", Double(jobs.received.plis))
        page.add("agentd_written_bytes_total", .counter, help: "Bytes written to recording files.", Double(jobs.bytesWritten))
        page.add("agentd_writer_queue_drops_total", .counter, help: "Events the bounded writer queues dropped.", Double(jobs.writerDrops))
        page.add("agentd_events_coalesced_total", .counter, help: "Pending statistics events a newer one replaced while their reader was behind.",
                 Double(jobs.events.coalesced))
        page.add("agentd_events_dropped_total", .counter,
                 help: "Events discarded past an event stream's bounds (data messages past 1024 pending, any past 65536).",
                 Double(jobs.events.dropped))
        page.add("agentd_worker_lane_drops_total", .counter,
                 help: "Frames the bounded worker lanes (remote tracks' decoders) dropped because they were full.", Double(laneDrops))
        if let process {
            page.add("process_cpu_seconds_total", .counter, help: "User and system CPU time of the daemon.", process.cpuSeconds)
            page.add("process_resident_memory_bytes", .gauge, help: "Resident memory of the daemon.", Double(process.residentBytes))
        }
        return page.text
    }
}
