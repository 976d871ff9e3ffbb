extension Recipe {
    /// A captions bot (`captions` in a host recipe): it subscribes to everyone, transcribes each
    /// participant separately and sends what they said as data messages
    /// (`{"type":"caption","from":NAME,"text":...,"final":bool,"t_ms":...}`).
    package struct Captions: Sendable, Equatable {
        package enum Engine: Sendable, Equatable {
            /// pocketsphinx in process, Debian's US English model.
            case pocketSphinx
            /// A program speaking the command engine's JSON lines (docs/speech-command-protocol.md):
            /// the executable's path (resolved against the recipe's directory) and its arguments.
            case command(executable: String, arguments: [String])
        }

        package var engine: Engine
        /// Also send partial results (`"final": false`) as an utterance goes on.
        package var partials: Bool

        package init(engine: Engine = .pocketSphinx, partials: Bool = true) {
            self.engine = engine
            self.partials = partials
        }
    }
}
