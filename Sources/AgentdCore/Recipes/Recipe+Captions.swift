extension Recipe {
    /// A captions bot (`captions` in a host recipe): it subscribes to everyone, transcribes each
    /// participant separately and sends what they said as data messages
    /// (`{"type":"caption","from":NAME,"text":...,"final":bool,"t_ms":...}`).
    package struct Captions: Sendable, Equatable {
        package var engine: SpeechEngine
        /// Also send partial results (`"final": false`) as an utterance goes on.
        package var partials: Bool

        package init(engine: SpeechEngine = .pocketSphinx, partials: Bool = true) {
            self.engine = engine
            self.partials = partials
        }
    }
}
