extension Recipe {
    /// Which speech recognizer a recipe listens with (captions, the voice agent).
    package enum SpeechEngine: Sendable, Equatable {
        /// pocketsphinx in process, Debian's US English model.
        case pocketSphinx
        /// A program speaking the command engine's JSON lines (docs/speech-command-protocol.md):
        /// the executable's path (resolved against the recipe's directory) and its arguments.
        case command(executable: String, arguments: [String])
    }
}
