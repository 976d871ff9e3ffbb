import Foundation

/// The delegate form of ``Channel/events``, for code that prefers callbacks (as client SDKs
/// offer them). Every method has an empty default; implement the ones you need. Calls come in
/// event order, one at a time, each awaited before the next.
///
/// ```swift
/// final class Greeter: ChannelDelegate {
///     func channel(_ channel: Channel, userJoined user: User) async {
///         try? await channel.send(text: "welcome \(user.display)")
///     }
/// }
/// await channel.setDelegate(greeter)   // the channel holds it weakly: keep a reference
/// ```
public protocol ChannelDelegate: AnyObject, Sendable {
    func channel(_ channel: Channel, connectionStateChanged state: ConnectionState) async
    func channel(_ channel: Channel, userJoined user: User) async
    func channel(_ channel: Channel, trackSubscribed track: RemoteTrack, of user: User) async
    func channel(_ channel: Channel, trackUnsubscribed track: RemoteTrack, of user: User) async
    func channel(_ channel: Channel, userLeft user: User) async
    func channel(_ channel: Channel, dataReceived payload: DataChannelMessage.Payload, from user: User?) async
    func channel(_ channel: Channel, tokenWillExpireAt expiry: Date) async
    func channel(_ channel: Channel, statsReport report: ChannelStatistics) async
    /// The delegate fell so far behind that `count` events were discarded (``ChannelEvent/eventsLost(count:)``).
    func channel(_ channel: Channel, eventsLost count: Int) async
    func channel(_ channel: Channel, activeSpeakersChanged speakers: [User]) async
}

extension ChannelDelegate {
    public func channel(_ channel: Channel, connectionStateChanged state: ConnectionState) async {}
    public func channel(_ channel: Channel, userJoined user: User) async {}
    public func channel(_ channel: Channel, trackSubscribed track: RemoteTrack, of user: User) async {}
    public func channel(_ channel: Channel, trackUnsubscribed track: RemoteTrack, of user: User) async {}
    public func channel(_ channel: Channel, userLeft user: User) async {}
    public func channel(_ channel: Channel, dataReceived payload: DataChannelMessage.Payload, from user: User?) async {}
    public func channel(_ channel: Channel, tokenWillExpireAt expiry: Date) async {}
    public func channel(_ channel: Channel, statsReport report: ChannelStatistics) async {}
    public func channel(_ channel: Channel, eventsLost count: Int) async {}
    public func channel(_ channel: Channel, activeSpeakersChanged speakers: [User]) async {}

    /// Calls the method for `event`.
    func dispatch(_ event: ChannelEvent, from channel: Channel) async {
        switch event {
        case .connectionStateChanged(let state): await self.channel(channel, connectionStateChanged: state)
        case .userJoined(let user): await self.channel(channel, userJoined: user)
        case .trackSubscribed(let user, let track): await self.channel(channel, trackSubscribed: track, of: user)
        case .trackUnsubscribed(let user, let track): await self.channel(channel, trackUnsubscribed: track, of: user)
        case .userLeft(let user): await self.channel(channel, userLeft: user)
        case .dataReceived(let user, let payload): await self.channel(channel, dataReceived: payload, from: user)
        case .tokenWillExpire(let expiry): await self.channel(channel, tokenWillExpireAt: expiry)
        case .statsReport(let report): await self.channel(channel, statsReport: report)
        case .eventsLost(let count): await self.channel(channel, eventsLost: count)
        case .activeSpeakersChanged(let speakers): await self.channel(channel, activeSpeakersChanged: speakers)
        }
    }
}
