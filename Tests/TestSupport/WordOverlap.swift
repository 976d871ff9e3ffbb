/// The share of `expected`'s words that `heard` has, each counted once, case-insensitively: how
/// the speech tests score a recognizer's text against the sentence it was given.
public func wordOverlap(_ heard: String, _ expected: String) -> Double {
    var remaining = heard.lowercased().split(separator: " ").map(String.init)
    let wanted = expected.lowercased().split(separator: " ").map(String.init)
    var found = 0
    for word in wanted {
        if let index = remaining.firstIndex(of: word) {
            remaining.remove(at: index)
            found += 1
        }
    }
    return Double(found) / Double(max(1, wanted.count))
}
