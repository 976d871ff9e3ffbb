import Foundation

/// The machine a benchmark ran on (house rule 12): cores, CPU model and memory.
struct MachineInfo: Sendable {
    let cores: Int
    let cpuModel: String
    let memoryMiB: UInt64
    let kernel: String

    static func current() -> MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKiB = ProcessSample.kibField("MemTotal:", in: meminfo) ?? 0
        let kernel =
            ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "unknown")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return MachineInfo(
            cores: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model, memoryMiB: memKiB / 1024, kernel: kernel)
    }

    var line: String {
        "machine: nproc=\(cores), CPU \"\(cpuModel)\", memory \(String(format: "%.1f", Double(memoryMiB) / 1024)) GiB, Linux \(kernel)"
    }
}
