import Agent
import Testing

@testable import BotKit

/// BotConfiguration carries a RoomJoin; its labelled init gives today's bot defaults.
@Suite struct RoomJoinBotConfigurationTests {
    @Test("connect timeout, reconnect policy and create default as BotConfiguration's did")
    func defaults() {
        let bot = BotConfiguration(server: "ws://10.77.0.2:8188/", room: "r1", display: "bot", iceAddresses: [])
        let join = RoomJoin(endpoint: .janus(server: "ws://10.77.0.2:8188/", room: "r1"), display: "bot", role: .host)
        #expect(bot.join == join)
        #expect(bot.join.timeouts.connect == .seconds(15))
        #expect(bot.join.reconnect == .standard)
        #expect(!bot.join.create)
        #expect(bot.listens && bot.statsInterval == .seconds(1))
        #expect(bot.credentials == .none)
    }

    @Test("a bot's link rejoins under the join's policy, in the bot's words, with no ICE restart")
    func linkConfiguration() {
        let bot = BotConfiguration(server: "ws://a/", room: "r2", display: "b", iceAddresses: [], reconnect: .never)
        #expect(Bot.linkConfiguration(bot.join) == LinkStateMachine.Configuration(reconnect: .never, iceRestartFirst: false, wording: .rejoin))
    }

    @Test("the labelled settings land in the join and the credentials; a bot always joins as a host")
    func labels() {
        let bot = BotConfiguration(
            server: "ws://a/", room: "r2", display: "b", token: "t", pin: "p", create: true, iceAddresses: ["10.77.0.1"],
            listens: false, connectTimeout: .seconds(3), statsInterval: .seconds(2), reconnect: .never)
        #expect(bot.join.endpoint == .janus(server: "ws://a/", room: "r2") && bot.join.display == "b" && bot.join.create)
        #expect(bot.join.iceAddresses == ["10.77.0.1"] && bot.join.timeouts.connect == .seconds(3) && bot.join.reconnect == .never)
        #expect(bot.credentials == RoomCredentials(token: "t", pin: "p"))
        #expect(!bot.listens && bot.statsInterval == .seconds(2))
        #expect(BotConfiguration(join: RoomJoin(endpoint: .janus(server: "ws://a/", room: "r2"))).join.role == .host)
    }

    @Test("a configuration printed or dumped shows no secret")
    func redacted() {
        let bot = BotConfiguration(server: "ws://a/", room: "r2", display: "b", token: "s3cret-token", pin: "pin-4321", iceAddresses: [])
        var dumped = ""
        dump(bot, to: &dumped)
        for text in ["\(bot)", String(reflecting: bot), dumped] {
            #expect(!text.contains("s3cret-token") && !text.contains("pin-4321"), "\(text)")
        }
    }
}
