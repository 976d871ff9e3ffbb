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

    private let behaviours: [Recipe.Behaviour]
    private let botName: String
    private let sender: DataSender
    private let say: @Sendable (String) -> Void
    private let state = Mutex(Counters())
    private let timers = Mutex<[Task<Void, Never>]>([])

    init(_ behaviours: [Recipe.Behaviour], botName: String, sender: DataSender, say: @escaping @Sendable (String) -> Void) {
        self.behaviours = behaviours
        self.botName = botName
        self.sender = sender
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
        let sent = await sender.deliver(message)
        state.withLock { counters in
            if sent {
                counters.messagesSent += 1
                if greeting { counters.greetings += 1 }
            } else {
                counters.sendFailures += 1
            }
        }
    }
}
