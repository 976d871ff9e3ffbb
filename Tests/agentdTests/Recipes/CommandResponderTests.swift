import Agent
import AgentdCore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import agentd

/// The command responder against small Python programs: one that answers (and writes a line of
/// garbage, which is skipped and counted), one that exits by itself, one that ignores the end of
/// its input, and one that cannot be started.
@Suite(.offThePool) struct CommandResponderTests {
    static let answering = #"""
        import json, sys
        print("this is not json", flush=True)
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "joined":
                print(json.dumps({"send": {"type": "hello", "to": msg["name"]}}), flush=True)
            elif msg["type"] == "transcript":
                print(json.dumps({"say": "you said " + msg["text"], "send": "at %d-%d" % (msg["start_ms"], msg["end_ms"])}), flush=True)
            elif msg["type"] == "interrupted":
                print(json.dumps({"action": "leave"}), flush=True)
        """#

    static func program(_ script: String, in scratch: ScratchDirectory) throws -> String {
        let path = scratch.path("responder-\(UUID().uuidString.prefix(8)).py")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func answersComeBackInOrderAndGarbageIsCounted() async throws {
        let scratch = try ScratchDirectory("command-responder")
        let answers = Mutex<[ResponderAnswer]>([])
        let exits = Mutex<[Int32]>([])
        let responder = try CommandResponder(
            executable: "/usr/bin/python3", arguments: ["-u", try Self.program(Self.answering, in: scratch)],
            answer: { answer in answers.withLock { $0.append(answer) } }, exited: { status, _ in exits.withLock { $0.append(status) } },
            log: { _ in })
        responder.hear(.joined(name: "ann"))
        responder.hear(.transcript(from: "ann", text: "what time is it", startMs: 1200, endMs: 2100))
        responder.hear(.interrupted(by: "ann"))
        try await pollUntil(timeout: .seconds(10), "three answers") { answers.withLock { $0.count } == 3 }
        #expect(answers.withLock { $0 } == [
            ResponderAnswer(send: #"{"to":"ann","type":"hello"}"#),
            ResponderAnswer(say: "you said what time is it", send: "at 1200-2100"),
            ResponderAnswer(leave: true),
        ])
        await responder.stop()
        let counters = responder.counters
        #expect(counters.answers == 3 && counters.badLines == 1 && counters.linesSent == 3, "\(counters)")
        #expect(exits.withLock { $0 }.isEmpty, "a stop is not an exit of the program's own")
        await responder.stop()
    }

    @Test func aProgramThatExitsByItselfIsReportedWithItsStatus() async throws {
        let scratch = try ScratchDirectory("command-responder")
        let exits = Mutex<[Int32]>([])
        let responder = try CommandResponder(
            executable: "/usr/bin/python3", arguments: ["-u", try Self.program("import sys\nsys.stdin.readline()\nsys.exit(3)\n", in: scratch)],
            answer: { _ in }, exited: { status, _ in exits.withLock { $0.append(status) } }, log: { _ in })
        responder.hear(.joined(name: "ann"))
        try await pollUntil(timeout: .seconds(10), "the exit") { !exits.withLock { $0 }.isEmpty }
        #expect(exits.withLock { $0 } == [3])
        await responder.stop()
    }

    @Test func aProgramThatIgnoresTheEndOfItsInputIsKilledAtStop() async throws {
        let scratch = try ScratchDirectory("command-responder")
        let responder = try CommandResponder(
            executable: "/usr/bin/python3", arguments: ["-u", try Self.program("import time\ntime.sleep(600)\n", in: scratch)],
            answer: { _ in }, exited: { _, _ in }, log: { _ in })
        let pid = responder.pid
        #expect(kill(pid, 0) == 0, "the program runs before the stop")
        let started = ContinuousClock.now
        await responder.stop()
        let took = ContinuousClock.now - started
        // It had its grace first, and was then killed and reaped: it is gone, long before its
        // 600 s sleep would have ended. (How soon after the grace this test sees the stop return
        // depends on its lane in the full suite: 13 and 20 s in two CI runs.)
        #expect(took >= CommandResponder.exitGrace - .milliseconds(100), "it had its grace first: \(took)")
        #expect(took < .seconds(300), "it was killed: \(took)")
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the program (pid \(pid)) is gone and reaped")
    }

    @Test func aProgramThatCannotStartIsAnError() {
        #expect(throws: SpawnFailure.self) {
            _ = try CommandResponder(executable: "/nonexistent/responder", arguments: [], answer: { _ in }, exited: { _, _ in }, log: { _ in })
        }
    }

    @Test func eventsBecomeTheDocumentedLines() {
        #expect(CommandResponder.line(for: .transcript(from: "a\"b", text: "hi", startMs: 1, endMs: 2))
            == #"{"end_ms":2,"from":"a\"b","start_ms":1,"text":"hi","type":"transcript"}"#)
        #expect(CommandResponder.line(for: .left(name: "ann")) == #"{"name":"ann","type":"left"}"#)
        #expect(CommandResponder.line(for: .data(from: "ann", text: "x")) == #"{"from":"ann","text":"x","type":"data"}"#)
    }
}
