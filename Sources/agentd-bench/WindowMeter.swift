import Foundation

/// CPU and memory of named groups of children over one steady window (after warm-up).
///
/// CPU is the difference of utime+stime (every thread of every process in the group) across
/// the window over its wall time, as percent of one core. RSS is the largest sum of the group's
/// VmRSS sampled every `sampleInterval`; peak is the sum of their VmHWM at the window's end.
struct WindowMeter {
    struct Group {
        let name: String
        let children: [Child]
    }

    struct Figures: Sendable {
        var cpuPercent = 0.0
        var rssMiB = 0.0
        var peakMiB = 0.0
    }

    struct Measurement: Sendable {
        var seconds = 0.0
        var figures: [String: Figures] = [:]
        /// Percent of all cores busy over the window (every process on the machine).
        var machineBusy = 0.0
        /// Threads of the `threadsOf` processes, summed by name, busiest first.
        var threads: [(name: String, percent: Double)] = []

        func figures(_ group: String) -> Figures { figures[group] ?? Figures() }
    }

    let seconds: TimeInterval
    var sampleInterval: TimeInterval = 0.5

    /// Measures `groups` for `seconds`, failing at once if any child exits; `threadsOf` are the
    /// children whose threads are broken down.
    func measure(_ groups: [Group], threadsOf: [Child] = []) throws(BenchError) -> Measurement {
        let everyone = groups.flatMap(\.children)
        let startLoad = MachineLoad.read()
        let start = Date()
        let threadsStart = ThreadTimes.read(pids: threadsOf.map(\.pid))
        var startTicks: [String: UInt64] = [:]
        for group in groups { startTicks[group.name] = try Self.sum(group.children).cpuTicks }
        var measurement = Measurement()
        let end = start.addingTimeInterval(seconds)
        while Date() < end {
            try everyone.checkRunning()
            for group in groups {
                let rss = Double(try Self.sum(group.children).rssKiB) / 1024
                measurement.figures[group.name, default: Figures()].rssMiB = max(measurement.figures(group.name).rssMiB, rss)
            }
            Thread.sleep(forTimeInterval: min(sampleInterval, max(0, end.timeIntervalSinceNow)))
        }
        var endSamples: [String: ProcessSample] = [:]
        for group in groups { endSamples[group.name] = try Self.sum(group.children) }
        let threadsEnd = ThreadTimes.read(pids: threadsOf.map(\.pid))
        let elapsed = Date().timeIntervalSince(start)
        measurement.seconds = elapsed
        for group in groups {
            guard let last = endSamples[group.name] else { continue }
            var figures = measurement.figures(group.name)
            let used = last.cpuTicks &- (startTicks[group.name] ?? last.cpuTicks)
            figures.cpuPercent = Double(used) / ProcessSample.ticksPerSecond / elapsed * 100
            figures.rssMiB = max(figures.rssMiB, Double(last.rssKiB) / 1024)
            figures.peakMiB = Double(last.peakRSSKiB) / 1024
            measurement.figures[group.name] = figures
        }
        measurement.threads = threadsEnd.percents(since: threadsStart, seconds: elapsed)
        if let startLoad, let endLoad = MachineLoad.read() { measurement.machineBusy = endLoad.busyPercent(since: startLoad) }
        return measurement
    }

    /// The group's CPU ticks, VmRSS and VmHWM, summed over its processes.
    private static func sum(_ children: [Child]) throws(BenchError) -> ProcessSample {
        var ticks: UInt64 = 0, rss: UInt64 = 0, peak: UInt64 = 0
        for child in children {
            guard let sample = ProcessSample.read(pid: child.pid) else {
                throw BenchError("cannot read /proc/\(child.pid) of \(child.name) (exited? \(child.lastLogLine()))")
            }
            ticks += sample.cpuTicks
            rss += sample.rssKiB
            peak += sample.peakRSSKiB
        }
        return ProcessSample(cpuTicks: ticks, rssKiB: rss, peakRSSKiB: peak)
    }
}
