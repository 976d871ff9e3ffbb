import Agent
import BotKit
import Testing

/// RoomJoin's defaults are BotConfiguration's too, for the settings a bot has today.
@Suite struct RoomJoinBotConfigurationTests {
    @Test("connect timeout, reconnect policy and create default as BotConfiguration's")
    func defaults() {
        let bot = BotConfiguration(server: "ws://10.77.0.2:8188/", room: "r1", display: "bot", iceAddresses: [])
        let join = RoomJoin(endpoint: .janus(server: bot.server, room: bot.room), display: bot.display)
        #expect(join.timeouts.connect == bot.connectTimeout)
        #expect(join.reconnect == bot.reconnect)
        #expect(join.create == bot.create)
    }
}
