import Agent
import BotKit
import Foundation
import Synchronization

/// The running part of `agentd play`: a ``Bot`` that publishes the files' tracks, paced by their
/// own timestamps, until the files end, the duration passes or a signal comes.
struct FilePlayer {
    struct Summary {
        var frames = 0
        var passes = 1
        var stoppedBy = "end of files"
        var sent: [TrackKind: SendStreamStatistics] = [:]

        /// The closing line: what was played, and what the receivers asked of us.
        var line: String {
            let packets = sent.values.reduce(0) { $0 + $1.packets }
            let nacks = sent.values.reduce(0) { $0 + $1.nacksReceived }
            let resent = sent.values.reduce(0) { $0 + $1.retransmissions }
            let keyframeRequests = sent.values.reduce(0) { $0 + $1.plisReceived + $1.firsReceived }
            return "\(frames) frames (\(passes) pass(es)); stopped by \(stoppedBy); sent \(packets) packets, "
                + "\(nacks) NACKs answered with \(resent) retransmissions, \(keyframeRequests) keyframe requests"
        }
    }

    let configuration: BotConfiguration

    func play(_ playlist: sending FramePlaylist, duration: Double?) async throws -> Summary {
        let bot = Bot(configuration: configuration)
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        do {
            try await bot.start(BotMedia(playlist: playlist, playbackLimit: duration.map { .seconds($0) }, dataChannel: false))
        } catch let error as BotError {
            throw Self.failure(error, room: configuration.room)
        }
        let stopped = Mutex<String?>(nil)
        let signalTask = Task {
            let number = await stopSignal.wait()
            guard number != 0 else { return }
            stopped.withLock { $0 = $0 ?? "signal" }
            await bot.stop()
        }
        defer { signalTask.cancel() }
        var summary = Summary()
        var lost: String?
        for await event in bot.events {
            if case .connectionLost(let reason) = event {
                lost = reason
                break
            }
            guard case .playbackFinished(let end) = event else { continue }
            switch end {
            case .endOfFiles: summary.stoppedBy = "end of files"
            case .duration: summary.stoppedBy = "duration"
            case .readError(let reason): summary.stoppedBy = "a read error (\(reason))"
            }
            break
        }
        if let lost {
            await bot.stop()
            throw CommandFailure(.connectionFailed, "playing into \(configuration.room) stopped: \(lost)")
        }
        if let reason = stopped.withLock({ $0 }) { summary.stoppedBy = reason }
        (summary.frames, summary.passes) = await bot.playbackProgress()
        summary.sent = await bot.sendStatistics()
        await bot.stop()
        return summary
    }

    static func failure(_ error: BotError, room: String) -> CommandFailure {
        switch error {
        case .codecRefused(let codec, let allowed):
            let list = allowed.isEmpty ? "" : " (it allows \(allowed.joined(separator: ", ")))"
            return CommandFailure(.refused, "room '\(room)' does not allow \(codec)\(list)", hint: "play a file in a codec the room allows")
        case .connectionFailed(let reason):
            return CommandFailure(.connectionFailed, "the media connection failed: \(reason)", hint: "check --ice-allow")
        default:
            return CommandFailure(.failure, error.description)
        }
    }
}
