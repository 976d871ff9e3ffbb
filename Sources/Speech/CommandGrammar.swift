/// A closed set of command phrases as a JSGF grammar (JSpeech Grammar Format, W3C note 2000):
///
///     #JSGF V1.0;
///     grammar commands;
///     public <command> = turn on the lights | stop | what time is it;
///
/// Phrases are lowercased and their words kept to letters and apostrophes, so no phrase can
/// carry JSGF syntax (`|`, `;`, `<rule>`) into the grammar.
struct CommandGrammar: Sendable, Equatable {
    static let ruleName = "commands"
    /// Each phrase's words, in the order given, duplicates dropped.
    let phrases: [[String]]

    init(phrases given: [String]) throws(SpeechRecognizerError) {
        var seen = Set<[String]>()
        var phrases: [[String]] = []
        for phrase in given {
            let words = phrase.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
            guard !words.isEmpty, words.count <= 32 else { throw .invalidConfiguration("command phrase '\(phrase.prefix(80))' must have 1-32 words") }
            for word in words where !word.allSatisfy({ ("a"..."z").contains($0) || $0 == "'" }) {
                throw .invalidConfiguration("command word '\(word.prefix(40))' must be letters (a-z) and apostrophes")
            }
            if seen.insert(words).inserted { phrases.append(words) }
        }
        guard !phrases.isEmpty, phrases.count <= 1_000 else { throw .invalidConfiguration("the command list must have 1-1000 phrases") }
        self.phrases = phrases
    }

    var words: Set<String> { Set(phrases.joined()) }

    var jsgf: String {
        "#JSGF V1.0;\ngrammar \(Self.ruleName);\npublic <command> = " + phrases.map { $0.joined(separator: " ") }.joined(separator: " | ") + ";\n"
    }
}
