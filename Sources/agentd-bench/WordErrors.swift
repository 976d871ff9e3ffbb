/// The word-level edit distance between a reference and a hypothesis (Levenshtein over words),
/// split into substitutions, deletions and insertions: WER = (S + D + I) / N.
struct WordErrors: Sendable, Equatable {
    var substitutions = 0
    var deletions = 0
    var insertions = 0
    /// Words in the reference (N).
    var referenceWords = 0

    var total: Int { substitutions + deletions + insertions }
    var rate: Double { Double(total) / Double(max(1, referenceWords)) }

    static func + (lhs: Self, rhs: Self) -> Self {
        Self(substitutions: lhs.substitutions + rhs.substitutions, deletions: lhs.deletions + rhs.deletions,
             insertions: lhs.insertions + rhs.insertions, referenceWords: lhs.referenceWords + rhs.referenceWords)
    }

    /// Lowercased words, punctuation other than apostrophes dropped.
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).map(String.init)
    }

    init(substitutions: Int = 0, deletions: Int = 0, insertions: Int = 0, referenceWords: Int = 0) {
        self.substitutions = substitutions
        self.deletions = deletions
        self.insertions = insertions
        self.referenceWords = referenceWords
    }

    init(reference: String, hypothesis: String) {
        let wanted = Self.words(reference)
        let heard = Self.words(hypothesis)
        // cost[i][j]: the cheapest alignment of wanted[..<i] with heard[..<j], and how it got there.
        var cost = [[WordErrors]](repeating: [WordErrors](repeating: WordErrors(), count: heard.count + 1), count: wanted.count + 1)
        for i in 1...max(1, wanted.count) where i <= wanted.count { cost[i][0] = WordErrors(deletions: i) }
        for j in 1...max(1, heard.count) where j <= heard.count { cost[0][j] = WordErrors(insertions: j) }
        for i in stride(from: 1, through: wanted.count, by: 1) {
            for j in stride(from: 1, through: heard.count, by: 1) {
                var substitution = cost[i - 1][j - 1]
                if wanted[i - 1] != heard[j - 1] { substitution.substitutions += 1 }
                var deletion = cost[i - 1][j]
                deletion.deletions += 1
                var insertion = cost[i][j - 1]
                insertion.insertions += 1
                cost[i][j] = [substitution, deletion, insertion].min { $0.total < $1.total } ?? substitution
            }
        }
        self = cost[wanted.count][heard.count]
        referenceWords = wanted.count
    }
}
