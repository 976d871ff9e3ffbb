/// What one run of N publishers measured, over the steady window only.
struct RecordResult: Sendable {
    let participants: Int
    let windowSeconds: Double
    /// agentd's CPU time over the window, as percent of one core.
    let agentdCPU: Double
    /// agentd's largest sampled VmRSS during the window, and its VmHWM at the window's end (MiB).
    let agentdRSS: Double
    let agentdHWM: Double
    /// The aiortc subscribers, summed: CPU % of one core and the largest sampled sum of VmRSS.
    let aiortcCPU: Double
    let aiortcRSS: Double
    /// The aiortc publishers' CPU, summed: load the machine carries beside the recorders.
    let publishersCPU: Double
    /// Percent of all cores busy over the window.
    let machineBusy: Double
    /// agentd's threads, busiest first, as "name percent-of-a-core".
    let agentdThreads: [String]
    let agentdExitStatus: Int32?
    /// From agentd's --json summary: participants recorded and events dropped (nil: no summary).
    let agentdRecorded: Int?
    let agentdDropped: Int?
    let agentdFiles: Int
    let agentdEmptyFiles: Int
    let agentdBytes: UInt64
    let aiortcFiles: Int
    let aiortcEmptyFiles: Int
    let aiortcBytes: UInt64
}
