/// How an offer we cannot answer reads to a person.
extension AnswerBuilder.Error: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unusableOffer(let reason): "the offer cannot be answered: \(reason)"
        }
    }
}
