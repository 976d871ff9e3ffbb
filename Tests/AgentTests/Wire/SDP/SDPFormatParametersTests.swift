import Testing

@testable import Agent
@testable import AgentWire

@Suite struct SDPFormatParametersTests {
    @Test func readsAChromiumH264Line() {
        let parameters = SDPFormatParameters("level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f")
        #expect(parameters["packetization-mode"] == "1")
        #expect(parameters["profile-level-id"] == "42e01f")
        #expect(parameters["sprop-parameter-sets"] == nil)
        #expect(parameters.entries.map(\.name) == ["level-asymmetry-allowed", "packetization-mode", "profile-level-id"])
    }

    /// libavformat writes spaces after the semicolons; names compare in any case.
    @Test func spacesAndCaseDoNotMatter() {
        let parameters = SDPFormatParameters(
            "packetization-mode=1; sprop-parameter-sets=Z0LACtolsBEAAAMAAQAAAwAUDxImoA==,aM48gA==; Profile-Level-ID=42C00A")
        #expect(parameters["PACKETIZATION-MODE"] == "1")
        #expect(parameters["sprop-parameter-sets"] == "Z0LACtolsBEAAAMAAQAAAwAUDxImoA==,aM48gA==")  // "=" inside a value stays
        #expect(parameters["profile-level-id"] == "42C00A")
    }

    @Test func oddEntriesAreKeptOrSkippedNotFatal() {
        let parameters = SDPFormatParameters(";;flag; =3;a=1;a=2;b=")
        #expect(parameters.entries.map(\.name) == ["flag", "a", "a", "b"])
        #expect(parameters["flag"] == "")
        #expect(parameters["a"] == "1")  // the first wins
        #expect(parameters["b"] == "")
        #expect(SDPFormatParameters("").entries.isEmpty)
        #expect(SDPFormatParameters("apt=96") == SDPFormatParameters(" apt = 96 "))
    }
}
