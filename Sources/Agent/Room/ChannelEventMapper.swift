/// Turns the room's ``RoomEvent``s into a channel's ``ChannelEvent``s and keeps the roster.
///
/// A plain value: events in, events out, no clock or socket, so the order guarantees are tested
/// on their own. It enforces them even if a source slips: a track of a user not yet announced
/// announces the user first; a user who leaves first loses their tracks; a final
/// `disconnected` takes everyone's tracks and users away before it is reported.
struct ChannelEventMapper {
    /// Users present, by id, and the order they came in.
    private(set) var users: [String: User] = [:]
    private var arrivalOrder: [String] = []
    private var tracks: [String: [MediaKind: RemoteTrack]] = [:]
    /// The last state reported; nil before the first.
    private(set) var state: ConnectionState?

    var isDisconnected: Bool {
        if case .disconnected = state { return true }
        return false
    }

    /// Users present, in arrival order.
    var presentUsers: [User] { arrivalOrder.compactMap { users[$0] } }

    /// A present user's subscribed track of `kind`: the object ``ChannelEvent/trackSubscribed(_:_:)``
    /// handed out, which frames are delivered to.
    func track(of userID: String, kind: MediaKind) -> RemoteTrack? { tracks[userID]?[kind] }

    /// The channel events for one room event (none for frames and statistics).
    mutating func map(_ event: RoomEvent) -> [ChannelEvent] {
        guard !isDisconnected else { return [] }
        switch event {
        case .participantJoined(let id, let display, _):
            guard users[id] == nil else {
                // A known id again (Janus repeats a publisher that changed its streams): not a
                // second arrival; the display may have changed.
                users[id] = User(id: id, display: display)
                return []
            }
            return join(User(id: id, display: display))
        case .trackAdded(let id, let kind, let codec):
            var events: [ChannelEvent] = []
            if users[id] == nil { events += join(User(id: id, display: id)) }
            guard let user = users[id] else { return events }
            if let old = tracks[id]?[kind] {
                // The same track announced again keeps its object (and the sinks on it).
                guard old.codec != codec else { return events }
                events.append(.trackUnsubscribed(user, old))
            }
            let track = RemoteTrack(participantID: id, kind: kind, codec: codec)
            tracks[id, default: [:]][kind] = track
            events.append(.trackSubscribed(user, track))
            return events
        case .trackRemoved(let id, let kind):
            guard let user = users[id], let track = tracks[id]?.removeValue(forKey: kind) else { return [] }
            return [.trackUnsubscribed(user, track)]
        case .participantLeft(let id, _):
            return leave(id)
        case .data(let id, let payload, _):
            return [.dataReceived(from: id.flatMap { users[$0] ?? User(id: $0, display: $0) }, payload: payload)]
        case .connectionState(let state, _):
            return transition(to: state)
        case .frame, .statistics, .iceSelectedPair:
            return []
        }
    }

    /// Reports a state change once; a final `disconnected` first takes every track and user away.
    mutating func transition(to next: ConnectionState) -> [ChannelEvent] {
        guard !isDisconnected, state != next else { return [] }
        var events: [ChannelEvent] = []
        if case .disconnected = next {
            for id in arrivalOrder.reversed() { events += leave(id) }
        }
        state = next
        events.append(.connectionStateChanged(next))
        return events
    }

    private mutating func join(_ user: User) -> [ChannelEvent] {
        users[user.id] = user
        arrivalOrder.append(user.id)
        return [.userJoined(user)]
    }

    private mutating func leave(_ id: String) -> [ChannelEvent] {
        guard let user = users.removeValue(forKey: id) else { return [] }
        arrivalOrder.removeAll { $0 == id }
        var events: [ChannelEvent] = []
        for kind in [MediaKind.audio, .video] {
            if let track = tracks[id]?[kind] { events.append(.trackUnsubscribed(user, track)) }
        }
        tracks[id] = nil
        events.append(.userLeft(user))
        return events
    }
}
