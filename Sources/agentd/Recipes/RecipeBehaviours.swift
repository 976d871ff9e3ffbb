import AgentdCore
import Foundation
import Synchronization

/// A recipe's behaviours for one bot: which rule fires on which event, and what it does (send a
/// data message, say a text). `{name}` becomes the arriving or leaving participant's display
/// name, or the bot's own for `start` and `every`.
final class RecipeBehaviours: Sendable {
    struct Counters: Sendable, Equatable {
        /// Data messages sent, by any rule.
        var messagesSent = 0
        /// Messages sent because someone joined.
        var greetings = 0
        var sendFailures = 0
        /// Texts handed to the speaker.
        var announcements = 0
    }

    /// A send right after joining may find the data channel still opening: retried this long.
    static let defaultSendRetryWindow = Duration.seconds(5)

    private let behaviours: [Recipe.Behaviour]
    private let botName: String
    private let send: @Sendable (String) async throws -> Void
    private let say: @Sendable (String) -> Void
    private let state = Mutex(Counters())
    private let timers = Mutex<[Task<Void, Never>]>([])
    private let sendRetryWindow: Duration

    init(_ behaviours: [Recipe.Behaviour], botName: String, sendRetryWindow: Duration = defaultSendRetryWindow,
         send: @escaping @Sendable (String) async throws -> Void, say: @escaping @Sendable (String) -> Void) {
        self.behaviours = behaviours
        self.sendRetryWindow = sendRetryWindow
        self.botName = botName
        self.send = send
        self.say = say
    }

    var counters: Counters { state.withLock { $0 } }

    /// Fires the `start` rules and arms the `every` timers (their first run is now).
    func started() {
        for behaviour in behaviours {
            switch behaviour.trigger {
            case .start:
                let task = Task { await self.perform(behaviour, name: botName, greeting: false) }
                timers.withLock { $0.append(task) }
            case .every(let seconds, let times):
                let task = Task {
                    let start = ContinuousClock.now
                    var fired = 0
                    while !Task.isCancelled, times.map({ fired < $0 }) ?? true {
                        await self.perform(behaviour, name: botName, greeting: false)
                        fired += 1
                        let next = start + .seconds(saturating: seconds * Double(fired))
                        do { try await Task.sleep(until: next, clock: .continuous) } catch { return }
                    }
                }
                timers.withLock { $0.append(task) }
            case .userJoined, .userLeft:
                break
            }
        }
    }

    func userJoined(display: String) async {
        for behaviour in behaviours where behaviour.trigger == .userJoined {
            await perform(behaviour, name: display, greeting: true)
        }
    }

    func userLeft(display: String) async {
        for behaviour in behaviours where behaviour.trigger == .userLeft {
            await perform(behaviour, name: display, greeting: false)
        }
    }

    func stop() {
        for task in timers.withLock({ $0 }) { task.cancel() }
    }

    private func perform(_ behaviour: Recipe.Behaviour, name: String, greeting: Bool) async {
        if let template = behaviour.say {
            say(Recipe.MessageTemplate.fill(template, name: name))
            state.withLock { $0.announcements += 1 }
        }
        guard let message = behaviour.send?.render(name: name) else { return }
        let deadline = ContinuousClock.now + sendRetryWindow
        while true {
            do {
                try await send(message)
                state.withLock { counters in
                    counters.messagesSent += 1
                    if greeting { counters.greetings += 1 }
                }
                return
            } catch {
                guard ContinuousClock.now < deadline, !Task.isCancelled else {
                    state.withLock { $0.sendFailures += 1 }
                    return
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }
}
