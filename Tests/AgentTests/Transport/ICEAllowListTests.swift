import Testing

@testable import Agent
@testable import AgentTransport

@Suite struct ICEAllowListTests {
    let table = [
        ICEAllowList.InterfaceAddress(interface: "lo", address: "127.0.0.1", isUp: true, isLoopback: true),
        ICEAllowList.InterfaceAddress(interface: "eth0", address: "192.168.1.10", isUp: true, isLoopback: false),
        ICEAllowList.InterfaceAddress(interface: "veth-lab", address: "10.77.0.1", isUp: true, isLoopback: false),
        ICEAllowList.InterfaceAddress(interface: "wlan0", address: "172.16.0.9", isUp: false, isLoopback: false),
    ]

    @Test func parsesNamesAndAddresses() throws {
        let list = try ICEAllowList(parsing: " lo, eth0,,10.77.0.1 ")
        #expect(list.entries == [.interface("lo"), .interface("eth0"), .address("10.77.0.1")])
    }

    @Test func rejectsBadEntries() {
        #expect(throws: ICEAllowListError.empty) { try ICEAllowList(parsing: " , ") }
        #expect(throws: ICEAllowListError.invalidAddress("10.0.0.300")) { try ICEAllowList(parsing: "10.0.0.300") }
        #expect(throws: ICEAllowListError.ipv6NotSupported("::1")) { try ICEAllowList(parsing: "lo,::1") }
        #expect(throws: ICEAllowListError.invalidInterfaceName("a-very-long-interface-name")) {
            try ICEAllowList(parsing: "a-very-long-interface-name")
        }
    }

    @Test func resolvesAgainstTable() throws {
        #expect(try ICEAllowList(parsing: "lo").resolve(against: table) == ["127.0.0.1"])
        #expect(try ICEAllowList(parsing: "10.77.0.1,eth0").resolve(against: table) == ["192.168.1.10", "10.77.0.1"])
        // Default: up and not loopback.
        #expect(try ICEAllowList.allNonLoopback.resolve(against: table) == ["192.168.1.10", "10.77.0.1"])
        // An interface that is down does not count.
        #expect(throws: ICEAllowListError.self) { try ICEAllowList(parsing: "wlan0").resolve(against: table) }
    }

    @Test func unknownInterfaceIsTypedError() throws {
        let list = try ICEAllowList(parsing: "nosuchif0")
        #expect {
            _ = try list.resolve()
        } throws: { error in
            guard case .nothingMatched(let allowList, let available) = error as? ICEAllowListError else { return false }
            return allowList == "nosuchif0" && available.contains("lo=127.0.0.1")
        }
    }

    @Test func loopbackResolvesOnThisMachine() throws {
        #expect(try ICEAllowList(parsing: "lo").resolve() == ["127.0.0.1"])
        #expect(try ICEAllowList(parsing: "127.0.0.1").resolve() == ["127.0.0.1"])
    }

    @Test func flagWinsOverEnvironment() throws {
        let environment = ["AGENTD_ICE_ALLOW": "eth0"]
        #expect(try ICEAllowList.fromCommandLine(flag: "lo", environment: environment).entries == [.interface("lo")])
        #expect(try ICEAllowList.fromCommandLine(flag: nil, environment: environment).entries == [.interface("eth0")])
        #expect(try ICEAllowList.fromCommandLine(flag: nil, environment: [:]) == .allNonLoopback)
    }
}
