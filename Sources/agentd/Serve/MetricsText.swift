/// Prometheus text exposition format 0.0.4: per metric a `# HELP` and a `# TYPE` line, then
/// samples `name{label="value"} number`.
struct MetricsText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    enum Kind: String {
        case counter, gauge
    }

    private(set) var text = ""

    mutating func add(_ name: String, _ kind: Kind, help: String, _ samples: [(labels: [(String, String)], value: Double)]) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            let labels = sample.labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",")
            text += name + (labels.isEmpty ? "" : "{\(labels)}") + " " + Self.number(sample.value) + "\n"
        }
    }

    mutating func add(_ name: String, _ kind: Kind, help: String, _ value: Double) {
        add(name, kind, help: help, [(labels: [], value: value)])
    }

    private static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
