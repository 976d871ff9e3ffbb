import Testing

@testable import Recorder

@Suite struct NameAllocatorTests {
    @Test func sanitizesToTheAllowedCharacters() {
        #expect(NameAllocator.sanitize("Alice B.") == "Alice_B_")
        #expect(NameAllocator.sanitize("bob_the-2nd") == "bob_the-2nd")
        #expect(NameAllocator.sanitize("José") == "Jos_")
        #expect(NameAllocator.sanitize("👍🏽x") == "_x")  // one grapheme, one underscore
        #expect(NameAllocator.sanitize("../../etc/passwd") == "______etc_passwd")
        #expect(NameAllocator.sanitize("") == "participant")
        #expect(NameAllocator.sanitize(String(repeating: "a", count: 500)) == String(repeating: "a", count: 64))
    }

    @Test func collisionsAndRejoinsGetNumbered() {
        var names = NameAllocator()
        #expect(names.allocate(display: "bob") == "bob")
        #expect(names.allocate(display: "bob") == "bob-2")  // rejoin
        #expect(names.allocate(display: "Bob") == "Bob-3")  // differs only by case
        #expect(names.allocate(display: "bob?") == "bob_")
        #expect(names.allocate(display: "bob-2") == "bob-2-2")
        #expect(names.allocate(display: "") == "participant")
        #expect(names.allocate(display: "???") == "___")
        #expect(names.allocate(display: "") == "participant-2")
        #expect(names.allocate(display: "mix") == "mix-2")  // mix.wav is the room mix
        #expect(names.allocate(display: "alice") == "alice")
    }

    /// A continued recording reserves the earlier run's names: a newcomer of the same display
    /// name never takes over the earlier person's files.
    @Test func reservedNamesAreNeverGiven() {
        var names = NameAllocator()
        names.reserve("Bob")
        names.reserve("Ann-2")
        #expect(names.allocate(display: "bob") == "bob-2")
        #expect(names.allocate(display: "Ann") == "Ann")
        #expect(names.allocate(display: "Ann") == "Ann-3")
    }
}
