/// An event that an ``EventBuffer`` can hold: it says how it may be treated while the consumer is
/// behind, and how the buffer marks a gap it had to leave.
public protocol BufferedEvent: Sendable {
    var bufferClass: EventBufferClass { get }
    /// The event that stands where `count` events were discarded (see ``EventBuffer``).
    static func eventsLost(count: Int) -> Self
}
