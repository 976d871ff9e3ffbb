/// `--notice data|speech|both` (the API's and the recorder recipe's `notice`): the recorder tells
/// the room that recording started and stopped, as Auvious's `recorderStateChanged` does, and so
/// shows as a participant (without a notice it stays unseen).
///
/// - `data`: a data message `{"type":"recorder","active":true|false,...}` when recording starts,
///   again every few seconds while it goes on (Janus relays data only to those subscribed at the
///   time, so a latecomer hears the next one), and when it stops.
/// - `speech`: a short spoken line (espeak-ng); `both`: the two.
package enum RecordingNotice: String, Sendable, CaseIterable {
    case data, speech, both

    package var sendsData: Bool { self != .speech }
    package var speaks: Bool { self != .data }

    package static let rule = "data, speech or both"
}
