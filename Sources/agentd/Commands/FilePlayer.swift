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
        var sent: [MediaKind: SendStreamStatistics] = [:]
        /// Frames not read or encoded in time off the loop (each sent 10 ms late); shown when any.
        var late = 0
        /// Keyframe requests answered with a keyframe of our own (the file's video is sent as stored).
        var keyframesMade = 0
        /// The candidate pair ICE selected for the media, when it did.
        var path: ICESelectedPair?

        /// The closing line: what was played, and what the receivers asked of us.
        var line: String {
            let packets = sent.values.reduce(0) { $0 + $1.packets }
            let nacks = sent.values.reduce(0) { $0 + $1.nacksReceived }
            let resent = sent.values.reduce(0) { $0 + $1.retransmissions }
            let keyframeRequests = sent.values.reduce(0) { $0 + $1.plisReceived + $1.firsReceived }
            return "\(frames) frames (\(passes) pass(es)); stopped by \(stoppedBy); sent \(packets) packets, "
                + "\(nacks) NACKs answered with \(resent) retransmissions, \(keyframeRequests) keyframe requests"
                + " (\(keyframesMade) answered with a keyframe of our own)"
                + (late > 0 ? ", \(late) frames sent late (file reads behind)" : "")
                + (path.map { "; ICE pair \($0)" + ($0.isRelayed ? " (through a TURN relay)" : "") } ?? "")
        }
    }

    let configuration: BotConfiguration
    /// The process's transport loops: the bot's engine takes one.
    let loops: LoopGroup
    /// The command's SIGINT/SIGTERM watch (installed before the files were opened).
    let stopSignal: StopSignal
    /// Where the reconnect notes go (stderr).
    var say: @Sendable (String) -> Void = { _ in }

    func play(_ playlist: sending FramePlaylist, duration: Double?) async throws -> Summary {
        let bot = Bot(configuration: configuration, engine: AgentEngine(group: loops))
        let stopSignal = self.stopSignal
        // A failed start throws the room's or the bot's error as it is: the command reads it
        // through JanusFailure, like every other join.
        try await bot.start(BotMedia(playlist: playlist, playbackLimit: duration.map { .seconds(saturating: $0) }, dataChannel: false))
        let stopped = Mutex<String?>(nil)
        let signalTask = Task {
            let number = await stopSignal.wait()
            guard number != 0 else { return }
            stopped.withLock { $0 = $0 ?? "signal" }
            await bot.stop()
        }
        defer { signalTask.cancel() }
        let progressTask = Self.showProgress(of: bot)
        defer {
            progressTask.cancel()
            ProgressLine().finish()
        }
        var summary = Summary()
        var lost: String?
        for await event in bot.events {
            switch event {
            case .connectionLost(let reason):
                lost = reason
            case .reconnecting(let attempt, let reason) where attempt == 1:
                ProgressLine().finish()
                say("agentd: dropped from \(configuration.roomName) (\(reason)); rejoining")
            case .reconnected:
                ProgressLine().finish()
                say("agentd: back in \(configuration.roomName), playing on")
            default:
                break
            }
            if lost != nil { break }
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
            throw CommandFailure(.connectionFailed, "playing into \(configuration.roomName) stopped: \(lost)")
        }
        if let reason = stopped.withLock({ $0 }) { summary.stoppedBy = reason }
        let progress = await bot.playbackProgress()
        (summary.frames, summary.passes, summary.late) = (progress.frames, progress.passes, progress.lateFrames)
        summary.keyframesMade = progress.keyframesMade
        summary.sent = await bot.sendStatistics()
        summary.path = await bot.publishingPath()
        await bot.stop()
        return summary
    }

    /// Once a second on a terminal: elapsed time, frames sent, passes, kbps.
    private static func showProgress(of bot: Bot) -> Task<Void, Never> {
        let progress = ProgressLine()
        guard progress.enabled else { return Task {} }
        return Task {
            let start = ContinuousClock.now
            var lastBytes = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let played = await bot.playbackProgress()
                let bytes = await bot.sendStatistics().values.reduce(0) { $0 + $1.bytes }
                let elapsed = Int((ContinuousClock.now - start) / .seconds(1))
                progress.show("playing \(ProgressLine.clock(elapsed))  \(played.frames) frames  pass \(played.passes)  \((bytes - lastBytes) * 8 / 1000) kbps")
                lastBytes = bytes
            }
        }
    }
}
