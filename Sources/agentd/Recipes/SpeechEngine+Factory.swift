import AgentdCore
import Speech

extension Recipe.SpeechEngine {
    /// The recognizer factory for this engine, checked by making one (a missing model or program
    /// fails here, before the bot joins).
    func checkedFactory() throws -> SpeechRecognizerFactory {
        let factory: SpeechRecognizerFactory
        switch self {
        case .pocketSphinx:
            factory = PocketSphinxRecognizer.factory
        case .command(let executable, let arguments):
            factory = { try CommandSpeechRecognizer(configuration: .init(executable: executable, arguments: arguments)) }
        }
        _ = try factory().finish()
        return factory
    }
}
