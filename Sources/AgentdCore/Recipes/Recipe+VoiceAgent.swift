extension Recipe {
    /// A voice agent (`agent` in a host recipe with a speech track): it listens to everyone, each
    /// participant with a turn detector and a recognizer of their own; at the end of a turn the
    /// words go to the ``Responder``, whose reply is spoken (espeak-ng), sent as data or acted on.
    /// With ``bargeIn`` the bot stops talking as soon as someone starts to speak over it.
    package struct VoiceAgent: Sendable, Equatable {
        package static let endOfTurnRange = 200...5_000
        package static let maximumRules = 100

        package var engine: SpeechEngine
        /// Silence after speech that ends a turn.
        package var endOfTurnMs: Int
        /// Stop talking (``AudioTrack/clear()``) when someone speaks over the bot.
        package var bargeIn: Bool
        package var responder: Responder

        package init(engine: SpeechEngine = .pocketSphinx, endOfTurnMs: Int = 500, bargeIn: Bool = true, responder: Responder) {
            self.engine = engine
            self.endOfTurnMs = endOfTurnMs
            self.bargeIn = bargeIn
            self.responder = responder
        }
    }

    /// Who decides what the agent answers.
    package enum Responder: Sendable, Equatable {
        /// The first rule whose pattern matches the turn's words answers; `fallback` answers the
        /// turns no rule matches (nil: those get no answer).
        case rules([ReplyRule], fallback: Reply?)
        /// A program that reads JSON lines (`{"type":"transcript",...}`, `{"type":"joined",...}`)
        /// on stdin and answers `{"say":...}`, `{"send":...}`, `{"action":"leave"}` on stdout
        /// (docs/agent-responder-protocol.md).
        case command(executable: String, arguments: [String])
    }

    /// `match` (a POSIX extended regular expression, case-insensitive, searched anywhere in the
    /// turn's words) and what to do when it matches.
    package struct ReplyRule: Sendable, Equatable {
        package var match: String
        package var reply: Reply

        package init(match: String, reply: Reply) {
            self.match = match
            self.reply = reply
        }
    }

    /// What the agent does in answer: any of saying, sending and an action.
    ///
    /// In `say` and in `send` (every string of a JSON object), `{name}` becomes the speaker's
    /// display name, `{text}` their words, `{0}` the whole match and `{1}` … `{9}` the pattern's
    /// groups (empty when a group took no part), `{time}` the time of day (UTC, `H:MM`).
    package struct Reply: Sendable, Equatable {
        package enum Action: String, Sendable, Equatable, CaseIterable {
            /// The bot leaves the room and the run ends (stopped by "agent").
            case leave
        }

        package var say: String?
        package var send: MessageTemplate?
        package var action: Action?

        package init(say: String? = nil, send: MessageTemplate? = nil, action: Action? = nil) {
            self.say = say
            self.send = send
            self.action = action
        }

        package var isEmpty: Bool { say == nil && send == nil && action == nil }
    }
}
