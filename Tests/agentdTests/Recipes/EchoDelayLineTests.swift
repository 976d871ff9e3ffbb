import Testing

@testable import agentd

/// The echo mix: placement `delay` after arrival, contiguity despite jitter, mixing, re-anchoring.
@Suite struct EchoDelayLineTests {
    @Test("a frame comes out exactly delay after it arrived, and the next one right after it despite jitter")
    func delayAndContiguity() {
        var line = EchoDelayLine(delayMilliseconds: 100)  // 4800 samples
        line.write([Float](repeating: 0.5, count: 960), from: "a", arrivedAt: 1_000, restart: true)
        // 15 ms late: still placed right after the first frame.
        line.write([Float](repeating: 0.25, count: 960), from: "a", arrivedAt: 1_960 + 720, restart: false)
        let out = line.read(upTo: 10_000)
        #expect(out[5_799] == 0 && out[5_800] == 0.5 && out[6_759] == 0.5 && out[6_760] == 0.25 && out[7_719] == 0.25 && out[7_720] == 0)
        #expect(line.counters.reanchors == 0)
    }

    @Test("two participants are summed and clipped")
    func mixing() {
        var line = EchoDelayLine(delayMilliseconds: 0)
        line.write([0.5, 0.75], from: "a", arrivedAt: 10, restart: true)
        line.write([0.25, 0.75], from: "b", arrivedAt: 10, restart: true)
        let out = line.read(upTo: 12)
        #expect(out[10] == 0.75 && out[11] == 1)
    }

    @Test("a participant drifting past the limit, or landing on samples already read, is re-anchored")
    func reanchor() {
        var line = EchoDelayLine(delayMilliseconds: 0)
        line.write([Float](repeating: 1, count: 960), from: "a", arrivedAt: 0, restart: true)
        _ = line.read(upTo: 48_000)
        line.write([0.5], from: "a", arrivedAt: 48_000, restart: false)
        #expect(line.counters.reanchors == 1)
        let out = line.read(upTo: 48_001)
        #expect(out == [0.5])
    }

    @Test("nothing written reads as silence; a stalled reader skips ahead")
    func silenceAndStall() {
        var line = EchoDelayLine(delayMilliseconds: 10)
        #expect(line.read(upTo: 480) == [Float](repeating: 0, count: 480))
        _ = line.read(upTo: 10_000_000)
        #expect(line.readPosition == 10_000_000)
    }
}
