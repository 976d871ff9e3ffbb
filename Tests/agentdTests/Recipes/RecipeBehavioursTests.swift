import AgentdCore
import Foundation
import TestSupport
import Testing

@testable import agentd

/// Behaviours without a room: which rule fires when, what it sends and says, and how a send
/// that fails at first (the data channel still opening) is retried.
@Suite struct RecipeBehavioursTests {
    final class Recorder: Sendable {
        let sent = Shared<[String]>([])
        let said = Shared<[String]>([])
        let failuresLeft = Shared(0)

        func behaviours(_ rules: [Recipe.Behaviour]) -> RecipeBehaviours {
            RecipeBehaviours(
                // A long window: under the full suite's load a task may wait seconds for a thread.
                rules, botName: "bot",
                sender: DataSender(window: .seconds(60)) { text in
                    let fail = self.failuresLeft.withLock { left -> Bool in
                        defer { left = max(0, left - 1) }
                        return left > 0
                    }
                    if fail { throw CancellationError() }
                    self.sent.withLock { $0.append(text) }
                },
                say: { text in self.said.withLock { $0.append(text) } })
        }
    }

    @Test("user_joined sends the rendered greeting and says it; user_left and start fire only on theirs")
    func triggers() async {
        let recorder = Recorder()
        let behaviours = recorder.behaviours([
            .init(trigger: .userJoined, send: .json(["to": "{name}"]), say: "welcome {name}"),
            .init(trigger: .userLeft, send: .text("bye {name}"), say: nil),
        ])
        await behaviours.userJoined(display: "carol")
        await behaviours.userLeft(display: "dave")
        #expect(recorder.sent.current == [#"{"to":"carol"}"#, "bye dave"])
        #expect(recorder.said.current == ["welcome carol"])
        #expect(behaviours.counters == .init(messagesSent: 2, greetings: 1, sendFailures: 0, announcements: 1))
    }

    @Test("every: fires at start and then on schedule, at most `times` times; start fires once with the bot's name")
    func schedule() async throws {
        let recorder = Recorder()
        let behaviours = recorder.behaviours([
            .init(trigger: .every(seconds: 0.1, times: 3), send: nil, say: "tick"),
            .init(trigger: .start, send: .text("hello from {name}"), say: nil),
        ])
        behaviours.started()
        defer { behaviours.stop() }
        try await pollUntil(timeout: .seconds(60), "three ticks and one hello") { recorder.said.current.count == 3 && recorder.sent.current.count == 1 }
        try await Task.sleep(for: .milliseconds(250))
        #expect(recorder.said.current == ["tick", "tick", "tick"], "no fourth tick")
        #expect(recorder.sent.current == ["hello from bot"])
    }

    @Test("a send that fails at first is retried until it goes through")
    func retry() async {
        let recorder = Recorder()
        recorder.failuresLeft.withLock { $0 = 2 }
        let behaviours = recorder.behaviours([.init(trigger: .userJoined, send: .text("hi {name}"), say: nil)])
        await behaviours.userJoined(display: "erin")
        #expect(recorder.sent.current == ["hi erin"] && behaviours.counters.sendFailures == 0)
    }
}
