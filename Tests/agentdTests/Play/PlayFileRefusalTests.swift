import Foundation
import TestSupport
import Testing

/// `agentd play` and `agentd bot` refuse a media path that is not a regular file (a FIFO, a
/// symlink to /dev/zero) at once, with exit 2 and a line saying what it is. A FIFO used to
/// block the open for good (SIGTERM ignored by `agentd bot`), and /dev/zero streamed forever.
@Suite("PlayFileRefusal", .serialized)
struct PlayFileRefusalTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let process = try ChildProcess(AgentdBinary.path, arguments, name: "agentd \(arguments[0])")
        defer { process.terminate() }
        // Generous: the refusal takes milliseconds, but a busy test process may be slow to look;
        // before the fix a FIFO never let go at all.
        try await pollUntil(timeout: .seconds(60), "agentd \(arguments[0]) to refuse the file") { !process.isRunning }
        try? await pollUntil(timeout: .seconds(2), "its stderr") { !process.stderr.isEmpty }
        return (process.exitStatus ?? -1, process.stderr)
    }

    @Test("play: a FIFO or a /dev/zero symlink as --audio or --video exits 2 fast, naming what it is")
    func playRefusesIrregularFiles() async throws {
        let scratch = try ScratchDirectory("playfifo")
        #expect(mkfifo(scratch.path("pipe.wav"), 0o644) == 0)
        #expect(mkfifo(scratch.path("pipe.ivf"), 0o644) == 0)
        for name in ["zero.opus", "zero.webm", "zero.ivf", "zero.wav"] {
            try FileManager.default.createSymbolicLink(atPath: scratch.path(name), withDestinationPath: "/dev/zero")
        }
        let base = ["play", "--server", "ws://127.0.0.1:1/", "--room", "r", "--display", "p", "--ice-allow", "lo"]
        let cases: [(flag: String, file: String, kind: String)] = [
            ("--audio", "pipe.wav", "a FIFO (named pipe)"), ("--video", "pipe.ivf", "a FIFO (named pipe)"),
            ("--audio", "zero.opus", "a character device"), ("--video", "zero.webm", "a character device"),
            ("--video", "zero.ivf", "a character device"), ("--audio", "zero.wav", "a character device"),
        ]
        for (flag, file, kind) in cases {
            let (status, stderr) = try await run(base + [flag, scratch.path(file)])
            #expect(status == 2, "\(flag) \(file): exit \(status) \(stderr)")
            #expect(stderr.hasPrefix("agentd: error: cannot play \(scratch.path(file)): it is \(kind), not a regular file"), "\(stderr)")
        }
    }

    @Test("bot: a recipe whose playlist holds a FIFO or a /dev/zero symlink exits 2 fast")
    func botRefusesIrregularFiles() async throws {
        let scratch = try ScratchDirectory("botfifo")
        #expect(mkfifo(scratch.path("pipe.wav"), 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("zero.opus"), withDestinationPath: "/dev/zero")
        for file in ["pipe.wav", "zero.opus"] {
            let recipe = scratch.path("player-\(file).json")
            let text = #"{"name": "player", "tracks": {"audio": {"source": "file", "playlist": ["\#(file)"]}}}"#
            try Data(text.utf8).write(to: URL(fileURLWithPath: recipe))
            let (status, stderr) = try await run(["bot", recipe, "--server", "ws://127.0.0.1:1/", "--room", "r", "--ice-allow", "lo"])
            #expect(status == 2, "\(file): exit \(status) \(stderr)")
            #expect(stderr.contains("not a regular file"), "\(stderr)")
        }
    }
}
