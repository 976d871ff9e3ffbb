import Foundation

/// Unbuffered output, so each row shows as soon as its run ends even when piped into tee.
enum Console {
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data("agentd-bench: \(text)\n".utf8))
    }
}
