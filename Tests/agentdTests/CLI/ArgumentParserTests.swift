import Testing

@testable import agentd

@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(spec: RecordCommand.spec, environment: ["AGENTD_ICE_ALLOW": "agentd-lab0"])

    @Test func parsesValuesFlagsAndEqualsForm() throws {
        let parsed = try parser.parse(["--server", "ws://h:8188/", "--room=demo", "--json", "--duration", "10"])
        #expect(parsed.value("server") == "ws://h:8188/")
        #expect(parsed.value("room") == "demo")
        #expect(parsed.has("json"))
        #expect(try parsed.seconds("duration") == 10)
    }

    @Test func environmentFillsIceAllowAndTheFlagWins() throws {
        let fromEnvironment = try parser.parse(["--server", "ws://h/", "--room", "r"])
        #expect(fromEnvironment.value("ice-allow") == "agentd-lab0")
        let fromFlag = try parser.parse(["--server", "ws://h/", "--room", "r", "--ice-allow", "eth0,10.0.0.1"])
        #expect(fromFlag.list("ice-allow") == ["eth0", "10.0.0.1"])
    }

    @Test(arguments: [
        (["--room", "r"], UsageError.missingRequired(option: "server")),
        (["--server", "ws://h/", "--room", "r", "--bogus"], .unknownOption("--bogus")),
        (["--server", "ws://h/", "--room"], .missingValue(option: "room")),
        (["--server", "ws://h/", "--room", "r", "extra"], .unexpectedArgument("extra")),
        (["--server", "ws://h/", "--room", "a", "--room", "b"], .repeatedOption("room")),
        (["--server", "ws://h/", "--room", "r", "--json=yes"], .invalidValue(option: "json", value: "yes", expected: "allowed: it takes no value")),
    ])
    func rejectsBadCommandLines(arguments: [String], expected: UsageError) {
        #expect(throws: expected) { try parser.parse(arguments) }
    }

    @Test func helpSkipsRequiredChecks() throws {
        let parsed = try parser.parse(["--help"])
        #expect(parsed.has("help"))
    }

    @Test func positionalsAreCounted() throws {
        let bot = ArgumentParser(spec: BotCommand.spec)
        #expect(try bot.parse(["recipes/tone.json"]).positionals == ["recipes/tone.json"])
        #expect(throws: UsageError.missingPositional("RECIPE.json")) { try bot.parse([]) }
    }

    @Test(arguments: ["0", "-3", "abc", "nan", "inf"])
    func durationMustBePositiveSeconds(text: String) throws {
        let parsed = try parser.parse(["--server", "ws://h/", "--room", "r", "--duration", text])
        #expect(throws: UsageError.self) { try parsed.seconds("duration") }
    }

    @Test func roomAndServerAreValidated() throws {
        let good = try parser.parse(["--server", "wss://janus.example:8989/ws", "--room", "Team_room-1"])
        #expect(try good.roomName() == "Team_room-1")
        #expect(try good.serverURL()?.host == "janus.example")
        let badRoom = try parser.parse(["--server", "ws://h/", "--room", "a b"])
        #expect(throws: UsageError.self) { try badRoom.roomName() }
        let longRoom = try parser.parse(["--server", "ws://h/", "--room", String(repeating: "a", count: 65)])
        #expect(throws: UsageError.self) { try longRoom.roomName() }
        let badServer = try parser.parse(["--server", "http://h/", "--room", "r"])
        #expect(throws: UsageError.self) { try badServer.serverURL() }
    }
}
