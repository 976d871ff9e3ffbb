import Testing

@testable import Recorder

/// The part numbers a continued recording's files get: one above the highest of their name.
@Suite struct RecordingPartNumbersTests {
    @Test("above the highest part of the same name; webm and mkv count together; other names start at 1")
    func aboveTheHighest() {
        let parts = RecordingPartNumbers(fileNames: [
            "alice.webm", "alice.part2.mkv", "alice.wav", "mix.wav", "mix.part2.wav", "mix.part3.wav", "data.jsonl",
            "Bob.part3.opus", "manifest.json", "sub/dir/carol.part4.webm",
        ])
        #expect(parts.first(for: "alice.webm") == 3)
        #expect(parts.first(for: "alice.wav") == 2)
        #expect(parts.first(for: "alice.opus") == 1)
        #expect(parts.first(for: "mix.wav") == 4)
        #expect(parts.first(for: "data.jsonl") == 2)
        #expect(parts.first(for: "carol.webm") == 5)
        #expect(parts.first(for: "dave.webm") == 1)
        #expect(RecordingPartNumbers().first(for: "alice.webm") == 1)
    }

    @Test("names compare case-insensitively, as on a case-insensitive file system")
    func caseInsensitive() {
        let parts = RecordingPartNumbers(fileNames: ["BOB.opus", "bob.Part3.OPUS"])
        #expect(parts.first(for: "bob.opus") == 4)
        #expect(parts.first(for: "Bob.opus") == 4)
    }

    @Test("odd names count as names of their own, never as huge parts", arguments: [
        "alice.part99999999999.webm", "alice.part.webm", "alice.part1.webm", "alice.partX.webm", ".webm", "alice.part-2.webm",
    ])
    func oddNames(name: String) {
        let parts = RecordingPartNumbers(fileNames: [name])
        #expect(parts.first(for: "alice.webm") == 1, "\(name)")
        #expect(parts.first(for: name) == 2, "\(name)")
    }
}
