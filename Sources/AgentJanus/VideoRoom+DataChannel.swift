extension VideoRoom {
    /// The label of the data channel we open on a VideoRoom PeerConnection, publishing or
    /// subscribing. Janus relays data to a subscriber only once it opened a channel of its own
    /// (LAB.md); the label is the one Janus's own clients use.
    static let dataChannelLabel = "JanusDataChannel"
}
