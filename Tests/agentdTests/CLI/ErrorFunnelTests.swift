import BotKit
import Foundation
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentJanus
@testable import AgentSession
@testable import AgentTransport
@testable import agentd

/// Every room, platform and bot error pinned to the exact line, hint and exit code the CLI shows
/// for it, through the one funnel: a platform error becomes an ``AgentError`` in Agent (the channel
/// calls ``AgentError/fromJanus(_:server:room:token:now:)`` for a join; `participants` meets a bare
/// ``JanusError`` and JanusFailure calls the same mapping), and every AgentError, and a bot's own
/// ``BotError``, reads through ``JanusFailure``. Record, play, bot and recipes all use it.
/// The server carries a password and the token is a real one: neither may show in any line.
@Suite struct ErrorFunnelTests {
    static let server = "ws://u:secret@10.77.0.2:8188/janus"
    static let masked = "ws://***@10.77.0.2:8188/janus"
    static let room = "r1"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let expiredToken = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(-1)).value
    static let freshToken = JanusToken.mint(secret: "s", plugins: ["janus.plugin.videoroom"], expiry: now.addingTimeInterval(60)).value
    static let video = TrackOffer(mid: "1", kind: .video, codec: .vp8, payloadType: 96, ssrc: 2)
    static let audio = TrackOffer(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 1)
    static let codecs = AllowedCodecs(audio: ["opus"], video: ["vp9", "h264"])

    // MARK: The lines

    static let codecRefusedListed = CommandFailure(
        .refused, "room 'r1' does not allow vp8 video: it allows audio opus; video vp9,h264",
        hint: "play a file in an allowed codec, or create the room with vp8 allowed")
    static let codecRefusedUnlisted = CommandFailure(
        .refused, "room 'r1' does not accept opus audio and vp8 video; its allowed codecs are not listed (a private room?)",
        hint: "allow opus,vp8 in the room")
    static let unreachable = CommandFailure(
        .connectionFailed, "cannot reach Janus at \(masked): refused", hint: "is the server up? try scripts/lab status")
    static let tokenRefused = CommandFailure(
        .refused, "Janus refused the token: Unauthorized request", hint: "check --token, or mint one with 'agentd token'")
    static let tokenExpired = CommandFailure(
        .refused, "Janus refused the token: it expired at 2027-01-15 07:59:59 +0000", hint: "mint a fresh one with 'agentd token'")
    static let tokenLacksPlugin = CommandFailure(
        .refused, "the token does not allow the VideoRoom plugin: Unauthorized plugin", hint: "mint it with --plugins janus.plugin.videoroom")
    static let roomNotFound = CommandFailure(.refused, "room 'r1' does not exist", hint: "pass --create to create it")
    static let roomRefused = CommandFailure(.refused, "room 'r1' refused us: Unauthorized (wrong pin)", hint: "check --pin or the room token")
    static let mediaFailed = CommandFailure(.connectionFailed, "the media connection failed: ice", hint: "check --ice-allow")
    static let relayUnavailable = CommandFailure(
        .connectionFailed, "no TURN relay (--ice-policy relay): no relayed candidate from turn:10.77.2.2:3478?transport=udp",
        hint: "check --ice-username and --ice-credential, and that the --ice-server is reachable from --ice-allow")
    static let timeout = CommandFailure(.connectionFailed, "Janus did not answer 'join' in time", hint: "server \(masked)")

    /// Every ``AgentError`` case: the one table the room API's errors are read through.
    static let agentErrors: [(AgentError, CommandFailure)] = [
        (.invalidName("bad name"), CommandFailure(.usage, "invalid room name 'bad name' (1-64 characters from A-Z a-z 0-9 _ -)")),
        (.alreadyJoined(server: server, room: room), CommandFailure(.failure, "already in room 'r1' on \(masked)")),
        (.notHost, CommandFailure(.failure, "only a host channel can do that")),
        (.channelClosed, CommandFailure(.failure, "the channel has left")),
        (.nothingToPublish, CommandFailure(.failure, "a host channel needs a track or a data channel")),
        (.unreachable(server: server, reason: "refused"), unreachable),
        (.signalingFailed("Janus closed the connection (1006 gone away)"),
         CommandFailure(.connectionFailed, "Janus closed the connection (1006 gone away)", hint: "server \(masked)")),
        (.mediaFailed("ice"), mediaFailed),
        (.relayUnavailable("no relayed candidate from turn:10.77.2.2:3478?transport=udp"), relayUnavailable),
        (.tokenExpired(expiredAt: Date(timeIntervalSince1970: 1_799_999_999)), tokenExpired),
        (.tokenRefused("Unauthorized request"), tokenRefused),
        (.tokenLacksPlugin("Unauthorized plugin"), tokenLacksPlugin),
        (.roomNotFound(room: room), roomNotFound),
        (.roomRefused("Unauthorized (wrong pin)"), roomRefused),
        (.codecRefused(refused: [video], allowed: codecs), codecRefusedListed),
        (.codecRefused(refused: [audio, video], allowed: nil), codecRefusedUnlisted),
        (.dataChannelUnavailable, CommandFailure(.failure, "no open data channel")),
        (.server(code: 500, reason: "boom"), CommandFailure(.failure, "Janus error 500: boom")),
        (.protocolViolation("no data"), CommandFailure(.failure, "unexpected answer from Janus: no data")),
        (.unsupported("joining a WHIP endpoint (only Janus rooms so far)"),
         CommandFailure(.usage, "not supported: joining a WHIP endpoint (only Janus rooms so far)")),
    ]

    /// Every ``JanusError`` case (and the codes read apart), as a join reads it.
    static let janusErrorsInAJoin: [(JanusError, CommandFailure)] = [
        (.connectFailed(reason: "refused"), unreachable),
        (.connectionClosed(code: 1006, reason: "gone away"),
         CommandFailure(.connectionFailed, "Janus closed the connection (1006 gone away)", hint: "server \(masked)")),
        (.timeout(request: "join"), timeout),
        (.server(code: 403, reason: "Unauthorized request"), tokenRefused),
        (.server(code: 405, reason: "Unauthorized plugin"), tokenLacksPlugin),
        (.plugin(code: 426, reason: "No such room"), roomNotFound),
        (.plugin(code: 433, reason: "Unauthorized (wrong pin)"), roomRefused),
        (.server(code: 458, reason: "No such session"), CommandFailure(.failure, "Janus error 458: No such session")),
        (.plugin(code: 432, reason: "Maximum number of publishers reached"),
         CommandFailure(.failure, "Janus error 432: Maximum number of publishers reached")),
        (.malformed("no data"), CommandFailure(.failure, "unexpected answer from Janus: no data")),
        (.gone("session"), CommandFailure(.connectionFailed, "Janus session is gone", hint: "server \(masked)")),
    ]

    /// Every ``JanusPublisherError`` case, as a host join reads it.
    static let publisherErrorsInAJoin: [(JanusPublisherError, CommandFailure)] = [
        (.codecRefused(refused: [video], allowed: codecs), codecRefusedListed),
        (.codecRefused(refused: [audio, video], allowed: nil), codecRefusedUnlisted),
        (.connectionFailed("ice"), mediaFailed),
        (.dataChannelUnavailable, CommandFailure(.failure, "no open data channel")),
        (.notStarted, CommandFailure(.failure, "the channel has left")),
    ]

    /// Every ``PeerConnectionError`` case: a join reads each as the media connection failing.
    static let peerErrors: [PeerConnectionError] = [
        .badOffer("x"), .ice(.gatheringFailed), .iceFailed, .dtls(.missingPeerCertificate), .srtp(.replayed),
        .sctp(.connectFailed(errno: 111)), .dataChannel(.noStreamsLeft), .notConnected, .closed,
    ]

    /// Every ``BotError`` case, as `agentd play` and a recipe's bot read it. (A bot's codec
    /// refusal and media failure are the room's: AgentError, above.)
    static let botErrors: [(BotError, CommandFailure)] = [
        (.conflictingSources("an audio track and an audio file"),
         CommandFailure(.failure, "two sources for one track: an audio track and an audio file")),
        (.nothingToPublish, CommandFailure(.failure, "nothing to publish")),
        (.notStarted, CommandFailure(.failure, "the bot has not started")),
        (.alreadyStarted, CommandFailure(.failure, "the bot has already started")),
        (.dataChannelUnavailable, CommandFailure(.failure, "no open data channel")),
    ]

    /// A join's error as the channel maps it and the CLI then reads it.
    static func joinFailure(_ error: any Error, token: String? = nil) -> CommandFailure {
        JanusFailure.failure(for: AgentError.fromJanus(error, server: server, room: room, token: token, now: now), server: server, room: room)
    }

    static func expectNoSecrets(_ failure: CommandFailure, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in ["secret", expiredToken, freshToken] {
            #expect(!failure.line.contains(secret), "\(failure.line)", sourceLocation: sourceLocation)
        }
    }

    /// Each error of `table` read through `read` gives its line, with no secret in it.
    static func expect<E: Error>(_ table: [(E, CommandFailure)], readAs read: (E) -> CommandFailure,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        for (error, expected) in table {
            let failure = read(error)
            #expect(failure == expected, "\(error)", sourceLocation: sourceLocation)
            expectNoSecrets(failure, sourceLocation: sourceLocation)
        }
    }

    /// The CLI's reading of any error met by a command, a recipe or a bot.
    static func cliFailure(_ error: any Error) -> CommandFailure {
        JanusFailure.failure(for: error, server: server, room: room)
    }

    // MARK: Tests

    @Test func everyAgentErrorReadsOneWay() {
        Self.expect(Self.agentErrors) { JanusFailure.failure(for: $0, server: Self.server, room: Self.room) }
        // The same error reached as `any Error` (play, record and recipes catch it so).
        Self.expect(Self.agentErrors, readAs: Self.cliFailure)
    }

    @Test func everyJanusErrorInAJoin() {
        Self.expect(Self.janusErrorsInAJoin) { Self.joinFailure($0) }
    }

    /// A 403 is an expired token only when the token's own expiry has passed.
    @Test func refusedTokenInAJoinNamesItsExpiry() {
        let refusal = JanusError.server(code: 403, reason: "Unauthorized request")
        #expect(Self.joinFailure(refusal, token: Self.expiredToken) == Self.tokenExpired)
        #expect(Self.joinFailure(refusal, token: Self.freshToken) == Self.tokenRefused)
        #expect(Self.joinFailure(refusal, token: "opaque") == Self.tokenRefused)
        Self.expectNoSecrets(Self.joinFailure(refusal, token: Self.expiredToken))
    }

    /// `agentd participants` meets a bare JanusError: it reads as in a join. (It used to have a
    /// table of its own, where `connectionClosed` had no hint and `gone` exited 1.)
    @Test func everyBareJanusErrorReadsAsInAJoin() {
        Self.expect(Self.janusErrorsInAJoin, readAs: Self.cliFailure)
    }

    @Test func everyPublisherErrorInAJoin() {
        Self.expect(Self.publisherErrorsInAJoin) { Self.joinFailure($0) }
    }

    @Test func everyPeerConnectionErrorInAJoinIsTheMediaFailing() {
        for error in Self.peerErrors {
            let failure = Self.joinFailure(error)
            #expect(failure == CommandFailure(.connectionFailed, "the media connection failed: \(error.description)", hint: "check --ice-allow"))
        }
    }

    /// The relay policy finding no relay is its own line (exit 4, naming the TURN options); servers
    /// that cannot work together are a usage error.
    @Test func relayErrorsInAJoin() {
        let noRelay = ICEAgentError.noRelayCandidate(servers: ["turn:10.77.2.2:3478?transport=tcp"], timedOut: false)
        let failure = Self.joinFailure(PeerConnectionError.ice(noRelay))
        #expect(failure.code == .connectionFailed && failure.line.contains("no TURN relay (--ice-policy relay): \(noRelay)"), "\(failure.line)")
        #expect(failure.line.contains("refused the allocation"), "\(failure.line)")
        let configuration = Self.joinFailure(PeerConnectionError.ice(.configuration(.missingCredentials)))
        #expect(configuration == CommandFailure(.usage, "not supported: ICE servers: a turn: server needs a username and a credential"))
    }

    /// What a join's mapping does not know (a transport error escaping) reads as a protocol violation.
    @Test func anUnknownErrorInAJoinIsAProtocolViolation() {
        #expect(Self.joinFailure(WebSocketError.notConnected)
            == CommandFailure(.failure, "unexpected answer from Janus: \(WebSocketError.notConnected)"))
    }

    /// Errors that are not the room's keep their own text, and a CommandFailure passes as it is.
    @Test func otherErrorsKeepTheirText() {
        let own = CommandFailure(.outputFailed, "disk full", hint: "free some space")
        #expect(Self.cliFailure(own) == own)
        let publisher = JanusPublisherError.connectionFailed("ice")
        #expect(Self.cliFailure(publisher)
            == CommandFailure(.failure, "the media connection failed: ice"))
        #expect(Self.cliFailure(PeerConnectionError.iceFailed)
            == CommandFailure(.failure, "ICE failed: no candidate pair worked"))
        #expect(Self.cliFailure(CancellationError())
            == CommandFailure(.failure, "cancelled before it finished"))
    }

    @Test func everyBotError() {
        Self.expect(Self.botErrors, readAs: Self.cliFailure)
    }
}
