import Foundation
import Speech
import TestSupport
import Testing

/// The command engine against small Python children: one that follows the protocol (and says
/// what it received), and ones that die, hang, stop reading or write garbage, each of which must
/// become its typed error within the deadline. Off the pool: the recognizer waits on its child
/// (with deadlines) on the calling thread, for up to seconds.
@Suite(.offThePool) struct CommandSpeechRecognizerTests {
    /// Follows the protocol: a partial after every frame, and on an end a final naming the
    /// frames' sample count and times, then the acknowledgement. Exits 0 at end of input.
    static let echo = #"""
        import base64, json, sys
        samples = 0; first = None; frames = 0
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "audio":
                pcm = base64.b64decode(msg["pcm"])
                if first is None: first = msg["t_ms"]
                assert msg["t_ms"] == samples // 16, (msg["t_ms"], samples)
                samples += len(pcm) // 2; frames += 1
                print(json.dumps({"text": "partial %d" % frames, "final": False, "start_ms": first, "end_ms": samples // 16}), flush=True)
            elif msg["type"] == "end":
                if first is not None:
                    print(json.dumps({"text": "heard %d samples in %d frames" % (samples, frames), "final": True,
                                      "start_ms": first, "end_ms": samples // 16, "confidence": 0.5}), flush=True)
                first = None; frames = 0
                print(json.dumps({"type": "end"}), flush=True)
        """#

    static func recognizer(_ script: String, scratch: ScratchDirectory, responseMs: Int = 2_000, endMs: Int = 2_000) throws -> CommandSpeechRecognizer {
        let path = scratch.path("child.py")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return try CommandSpeechRecognizer(configuration: .init(executable: "/usr/bin/python3", arguments: ["-u", path],
                                                                responseTimeoutMs: responseMs, endTimeoutMs: endMs))
    }

    @Test("audio goes as 100 ms frames with t_ms from the first sample whatever the chunks; the final comes back from endUtterance")
    func followsTheProtocol() throws {
        let scratch = try ScratchDirectory("command-recognizer")
        let recognizer = try Self.recognizer(Self.echo, scratch: scratch)
        var partials: [SpeechResult] = []
        for _ in 0..<10 { partials += try recognizer.feed([Int16](repeating: 100, count: 333)) }  // 3330 samples: 2 frames + 130
        let final = try recognizer.endUtterance()
        // The last 130 samples go as a short frame before the end.
        #expect(final.last == SpeechResult(text: "heard 3330 samples in 3 frames", startMs: 0, endMs: 208, isFinal: true, confidence: 0.5))
        #expect((partials + final).filter { !$0.isFinal }.allSatisfy { $0.text.hasPrefix("partial ") })
        // A second utterance continues the stream's clock.
        _ = try recognizer.feed([Int16](repeating: 0, count: 1_600))
        #expect(try recognizer.finish().last == SpeechResult(text: "heard 4930 samples in 1 frames", startMs: 208, endMs: 308, isFinal: true, confidence: 0.5))
        #expect(try recognizer.finish().isEmpty)
        #expect(throws: SpeechRecognizerError.finished) { try recognizer.feed([1]) }
    }

    @Test("a child that exits is childExited with its status and stderr tail, now and on every later call")
    func childDies() throws {
        let scratch = try ScratchDirectory("command-recognizer")
        let recognizer = try Self.recognizer("import sys\nsys.stdin.readline()\nsys.stderr.write('model failed to load\\n')\nsys.exit(3)\n", scratch: scratch)
        let started = ContinuousClock.now
        var caught: SpeechRecognizerError?
        do {
            for _ in 0..<100 { _ = try recognizer.feed([Int16](repeating: 0, count: 1_600)) }
            _ = try recognizer.endUtterance()
        } catch { caught = error }
        guard case .childExited(let status, let tail) = caught else {
            Issue.record("expected childExited, got \(String(describing: caught))")
            return
        }
        #expect(status == 3)
        #expect(tail.contains("model failed to load"))
        // Python's start (slow on a loaded machine) plus at most a second to collect the exit.
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(throws: SpeechRecognizerError.self) { try recognizer.feed([0]) }
    }

    @Test("a child that stops reading, or never answers an end, is childHung within its deadline")
    func childHangs() throws {
        let scratch = try ScratchDirectory("command-recognizer")
        let sleeper = try Self.recognizer("import time\ntime.sleep(60)\n", scratch: scratch, responseMs: 500, endMs: 500)
        var started = ContinuousClock.now
        // Ten seconds of audio a call fill the socket's buffer within a few calls.
        #expect(throws: SpeechRecognizerError.childHung(waitedMs: 500, stderrTail: "")) {
            for _ in 0..<100 { _ = try sleeper.feed([Int16](repeating: 0, count: 160_000)) }
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        let silent = try Self.recognizer("import sys\nfor line in sys.stdin: pass\n", scratch: scratch, responseMs: 500, endMs: 700)
        _ = try silent.feed([Int16](repeating: 0, count: 3_200))
        started = ContinuousClock.now
        #expect(throws: SpeechRecognizerError.childHung(waitedMs: 700, stderrTail: "")) { try silent.endUtterance() }
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test("garbage, an overlong line and a result without times are childProtocol errors")
    func childWritesGarbage() throws {
        let scratch = try ScratchDirectory("command-recognizer")
        let cases = [
            ("print('hello there', flush=True)", "not JSON"),
            ("import sys\nsys.stdout.write('x' * 200000); sys.stdout.flush()", "a line longer than 65536 bytes"),
            ("print('{\"text\": \"hi\", \"final\": true}', flush=True)", "start_ms"),
            ("print('[1, 2]', flush=True)", "not a JSON object"),
        ]
        for (body, reason) in cases {
            let recognizer = try Self.recognizer("import sys\nsys.stdin.readline()\n\(body)\nimport time\ntime.sleep(30)\n", scratch: scratch)
            var caught: SpeechRecognizerError?
            do {
                _ = try recognizer.feed([Int16](repeating: 0, count: 1_600))
                _ = try recognizer.endUtterance()
            } catch { caught = error }
            guard case .childProtocol(let text, _) = caught else {
                Issue.record("\(reason): expected childProtocol, got \(String(describing: caught))")
                continue
            }
            #expect(text.contains(reason), "\(text)")
        }
    }

    @Test("a program that cannot be started is childSpawnFailed")
    func spawnFails() {
        #expect(throws: SpeechRecognizerError.childSpawnFailed(command: "/nonexistent/recognizer", reason: "No such file or directory")) {
            try CommandSpeechRecognizer(configuration: .init(executable: "/nonexistent/recognizer"))
        }
    }
}
