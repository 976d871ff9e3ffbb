import Foundation
import TestSupport
import Testing

@testable import Agent
@testable import AgentTransport
@testable import BotKit

/// The pacer's audio comes encoded ahead on a worker lane: in order, never lost when the lane is
/// late (the PCM waits in the track), late packets counted.
@Suite(.offThePool) struct AudioPrefetchTests {
    /// `frames` 20 ms frames of a 440 Hz tone at 48 kHz mono.
    static func tone(frames: Int) -> [Float] {
        (0..<frames * 960).map { Float(sin(Double($0) * 2 * .pi * 440 / 48_000)) * 0.5 }
    }

    /// Blocks `lane` until the returned semaphore is signalled.
    static func block(_ lane: WorkerLane) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        lane.enqueue {
            started.signal()
            release.wait()
        }
        started.wait()
        return release
    }

    /// The next packet, once the lane has made it: no polling against a clock, which a busy test
    /// run would starve (the lane is waited for itself).
    static func takeWhenReady(_ prefetch: AudioPrefetch, on lane: WorkerLane) async throws -> AudioTrack.Packet {
        if let packet = prefetch.take() { return packet }
        await lane.flush()
        return try #require(prefetch.take(), "the lane has run the encode the take asked for")
    }

    /// A track with `frames` of tone queued, encoded ahead on a lane of its own.
    static func prefetching(frames: Int) throws -> (WorkerLane, AudioTrack, AudioPrefetch) {
        let lane = WorkerLane(name: "test.audio", capacity: 4)
        let track = try AudioTrack()
        #expect(try track.tryPush(tone(frames: frames), sampleRate: 48_000, channels: 1))
        return (lane, track, AudioPrefetch(track: track, lane: lane))
    }

    @Test func packetsComeInOrderFromTheLaneThenSilence() async throws {
        let (lane, track, prefetch) = try Self.prefetching(frames: 3)
        defer { lane.shutdown() }
        var packets: [AudioTrack.Packet] = []
        for _ in 0..<5 { packets.append(try await Self.takeWhenReady(prefetch, on: lane)) }
        #expect(packets.map(\.hasAudio) == [true, true, true, false, false])
        #expect(track.statistics.packetsWithAudio == 3)
    }

    @Test func aBusyLaneMakesPacketsLateButLosesNoAudio() async throws {
        let (lane, _, prefetch) = try Self.prefetching(frames: 4)
        defer { lane.shutdown() }
        #expect(try await Self.takeWhenReady(prefetch, on: lane).hasAudio)
        await lane.flush()  // the second packet is encoded and waiting
        let release = Self.block(lane)
        #expect(prefetch.take()?.hasAudio == true)  // ready before the lane was blocked
        #expect(prefetch.take() == nil)
        #expect(prefetch.take() == nil)
        #expect(prefetch.late == 2)
        release.signal()
        let rest = [try await Self.takeWhenReady(prefetch, on: lane), try await Self.takeWhenReady(prefetch, on: lane), try await Self.takeWhenReady(prefetch, on: lane)]
        #expect(rest.map(\.hasAudio) == [true, true, false], "the PCM waited in the track")
    }

    @Test func theFirstPacketIsNotCountedLateAndStopEndsTheEncoding() async throws {
        let lane = WorkerLane(name: "test.audio", capacity: 4)
        defer { lane.shutdown() }
        let release = Self.block(lane)
        let track = try AudioTrack()
        let prefetch = AudioPrefetch(track: track, lane: lane)
        #expect(prefetch.take() == nil)
        #expect(prefetch.late == 0, "the pacer may ask before the lane had a moment")
        release.signal()
        _ = try await Self.takeWhenReady(prefetch, on: lane)
        await lane.flush()
        prefetch.stop()
        let encoded = track.statistics.silentPackets
        #expect(prefetch.take() != nil)  // made before the stop
        await lane.flush()
        #expect(prefetch.take() == nil)
        #expect(track.statistics.silentPackets == encoded, "nothing encoded after the stop")
    }
}
