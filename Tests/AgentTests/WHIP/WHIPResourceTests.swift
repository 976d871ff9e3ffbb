import Testing

@testable import AgentWHIP

@Suite struct WHIPResourceTests {
    static let endpoint = "http://10.77.0.2:7080/whip/endpoint/one"

    @Test("a relative Location resolves against the endpoint; an absolute one stays")
    func resolves() throws {
        #expect(try WHIPResource(location: "/whip/resource/one", etag: "\"e\"", endpoint: Self.endpoint).url == "http://10.77.0.2:7080/whip/resource/one")
        #expect(try WHIPResource(location: "../resource/one", etag: nil, endpoint: Self.endpoint).url == "http://10.77.0.2:7080/whip/resource/one")
        #expect(try WHIPResource(location: "http://127.0.0.1:9/r", etag: nil, endpoint: Self.endpoint).url == "http://127.0.0.1:9/r")
        #expect(try WHIPResource(location: "/r", etag: "\"e\"", endpoint: Self.endpoint).etag == "\"e\"")
    }

    @Test("no Location, a huge one or one that is not http(s) is badLocation")
    func refuses() {
        for location in [nil, "", "ftp://10.77.0.2/r", String(repeating: "a", count: 3000)] as [String?] {
            #expect(throws: WHIPError.self) { _ = try WHIPResource(location: location, etag: nil, endpoint: Self.endpoint) }
        }
    }
}
