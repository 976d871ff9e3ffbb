import Agent
import Foundation

/// Text to PCM with espeak-ng (apt `espeak-ng`): it writes a WAV (22.05 kHz mono for its default
/// voices), which libsndfile reads back. The text goes on stdin, never on a command line, so no
/// text can pass for an option.
struct SpeechSynthesizer: Sendable {
    struct Speech: Sendable {
        var samples: [Int16]
        var sampleRate: Int
        var duration: Double { Double(samples.count) / Double(max(sampleRate, 1)) }
    }

    enum Failure: Error, CustomStringConvertible {
        case notInstalled(String)
        case failed(status: Int32, stderr: String)
        case unreadable(String)

        var description: String {
            switch self {
            case .notInstalled(let command): "\(command) is not installed (apt-get install espeak-ng)"
            case .failed(let status, let stderr): "espeak-ng exited \(status): \(stderr.prefix(200))"
            case .unreadable(let reason): "cannot read espeak-ng's WAV: \(reason)"
            }
        }
    }

    /// The espeak-ng executable's path.
    let executable: String
    let voice: String
    let wordsPerMinute: Int

    /// Finds `command` (a path, or a name looked up on `PATH`).
    static func locate(_ command: String = "espeak-ng", environment: [String: String]) throws(Failure) -> String {
        if command.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: command) else { throw .notInstalled(command) }
            return command
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(command)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .notInstalled(command)
    }

    func synthesize(_ text: String) async throws -> Speech {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("agentd-speech-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-v", voice, "-s", String(wordsPerMinute), "-w", output.path, "--stdin"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: Failure.notInstalled("\(executable) (\(ErrorText.describe(error)))"))
                return
            }
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else { throw Failure.failed(status: status, stderr: stderr) }
        do {
            let reader = try SoundFileReader(path: output.path)
            let samples = try reader.readAll()
            // Mixed down to mono when a voice comes out stereo.
            let channels = max(reader.info.channels, 1)
            let mono = channels == 1 ? samples : stride(from: 0, to: samples.count - channels + 1, by: channels).map { samples[$0] }
            return Speech(samples: mono, sampleRate: reader.info.sampleRate)
        } catch {
            throw Failure.unreadable(ErrorText.describe(error))
        }
    }
}
