import Agent
import BotKit
import Synchronization

/// The echo recipe's audio: decodes every subscribed remote audio track, mixes them on an
/// ``EchoDelayLine`` `delay` after they arrive, and feeds the mix to the bot's ``AudioTrack``.
///
/// Sinks write on their tracks' worker lanes (quick: a lock and a sum); a drain task reads
/// the line every 20 ms up to ``lead`` ahead of the clock and pushes it, so the track's queue
/// holds about `lead` and the pacer never runs dry between drains.
final class EchoRelay: Sendable {
    static let lead = Duration.milliseconds(60)
    static let drainInterval = Duration.milliseconds(20)

    private let line: Mutex<EchoDelayLine>
    private let track: AudioTrack
    private let start: ContinuousClock.Instant
    private let framesIn = Mutex(0)
    private let attached = Mutex<Set<String>>([])

    init(track: AudioTrack, delayMilliseconds: Int) {
        self.track = track
        line = Mutex(EchoDelayLine(delayMilliseconds: delayMilliseconds))
        start = .now
    }

    /// Remote frames mixed so far, and remote tracks heard.
    var statistics: (frames: Int, tracks: Int) { (framesIn.withLock { $0 }, attached.withLock { $0.count }) }

    /// Starts hearing `remote` (an audio track; video is ignored).
    func attach(_ remote: RemoteTrack) throws {
        guard remote.kind == .audio else { return }
        let format = try RemoteAudioFormat(sampleRate: EchoDelayLine.sampleRate, channels: 1, frameDuration: .milliseconds20, sampleFormats: .float)
        let participant = remote.participantID
        let sink = try RemoteAudioSink(format: format) { [self] frame in
            guard let samples = frame.floatSamples else { return }
            let now = position(.now)
            line.withLock { $0.write(samples, from: participant, arrivedAt: now, restart: frame.isDiscontinuity) }
            framesIn.withLock { $0 += 1 }
        }
        remote.add(sink)
        attached.withLock { _ = $0.insert(participant) }
    }

    /// `participant` left: its next track starts a fresh timeline.
    func forget(_ participant: String) {
        line.withLock { $0.forget(participant) }
    }

    /// Feeds the mix to the track until cancelled or the track closes.
    func startDraining() -> Task<Void, Never> {
        Task {
            var next = ContinuousClock.now
            while !Task.isCancelled {
                let samples = line.withLock { $0.read(upTo: position(.now + Self.lead)) }
                if !samples.isEmpty {
                    do { try await track.push(samples, sampleRate: EchoDelayLine.sampleRate, channels: 1) } catch { return }
                }
                next += Self.drainInterval
                do { try await Task.sleep(until: next, clock: .continuous) } catch { return }
            }
        }
    }

    private func position(_ instant: ContinuousClock.Instant) -> Int64 {
        let elapsed = instant - start
        let (seconds, attoseconds) = elapsed.components
        return seconds * Int64(EchoDelayLine.sampleRate) + attoseconds / (1_000_000_000_000_000_000 / Int64(EchoDelayLine.sampleRate))
    }
}
