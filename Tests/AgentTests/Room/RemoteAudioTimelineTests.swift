import Testing

@testable import Agent

@Suite struct RemoteAudioTimelineTests {
    @Test func placesContiguousGapOverlapLateAndJumps() {
        var timeline = RemoteAudioTimeline(fillLimit: 48_000)
        #expect(timeline.place(timestamp: 1_000, duration: 960) == .start)
        #expect(timeline.place(timestamp: 1_960, duration: 960) == .next(gap: 0, trim: 0))
        #expect(timeline.place(timestamp: 4_840, duration: 960) == .next(gap: 1_920, trim: 0))
        // A duplicate, and a packet reordered after its span was filled.
        #expect(timeline.place(timestamp: 4_840, duration: 960) == .late)
        #expect(timeline.place(timestamp: 2_920, duration: 960) == .late)
        // Overlapping the end: the first 480 ticks are already placed.
        #expect(timeline.place(timestamp: 5_320, duration: 960) == .next(gap: 0, trim: 480))
        #expect(timeline.next == 6_280)
        // Exactly the fill limit is filled; one tick more restarts.
        #expect(timeline.place(timestamp: 6_280 + 48_000, duration: 960) == .next(gap: 48_000, trim: 0))
        #expect(timeline.place(timestamp: 55_240 + 48_001, duration: 960) == .restart)
        #expect(timeline.next == 104_201)
    }

    @Test func farBehindRestartsOnlyAfterARun() {
        var timeline = RemoteAudioTimeline(fillLimit: 4_800, restartAfterStalePackets: 3)
        _ = timeline.place(timestamp: 100_000, duration: 960)
        #expect(timeline.place(timestamp: 10_000, duration: 960) == .late)
        // A packet in order in between breaks the run.
        #expect(timeline.place(timestamp: 100_960, duration: 960) == .next(gap: 0, trim: 0))
        #expect(timeline.place(timestamp: 10_960, duration: 960) == .late)
        #expect(timeline.place(timestamp: 11_920, duration: 960) == .late)
        #expect(timeline.place(timestamp: 12_880, duration: 960) == .restart)
        #expect(timeline.place(timestamp: 13_840, duration: 960) == .next(gap: 0, trim: 0))
        timeline.reset()
        #expect(timeline.place(timestamp: 5, duration: 960) == .start)
    }
}
