import Agent
import Foundation

/// What a recipe run did: the counters behind `agentd bot`'s closing line, a daemon job's
/// status, and its metrics. Readable while it runs (``RecipeRunner/progress()``).
struct RecipeOutcome: Sendable, Equatable {
    var recipe: String
    var room: String
    /// Why it ended: "duration", "signal" (CLI) or "request" (daemon), "end of files", "a read error (...)";
    /// "running" while it runs.
    var stoppedBy = "running"
    var seconds = 0.0
    /// Participants joined (the load recipe's N).
    var participants = 0
    var packetsSent = 0
    var bytesSent = 0
    var framesPlayed = 0
    var passes = 0
    var messagesSent = 0
    var greetings = 0
    /// Texts said (queued to the speaker) and fully spoken.
    var announcements = 0
    var spoken = 0
    var speechFailures = 0
    var echoedFrames = 0
    var echoedTracks = 0
    /// Captions sent (final and partial), frames the recognizers could not keep up with.
    var captionsFinal = 0
    var captionsPartial = 0
    var captionFramesDropped = 0
    /// The voice agent's turns, answers, barge-ins and latencies.
    var agent: VoiceAgentDriver.Counters?
    /// What the bots' event streams coalesced or dropped because their reader was behind.
    var events = EventBufferCounts()
    /// The recording job's own summary (the recorder recipe).
    var recording: String?

    /// One line: what it did.
    var line: String {
        var parts = [String(format: "recipe %@ ran %.1f s in %@, stopped by %@", recipe, seconds, room, stoppedBy)]
        if let recording {
            parts.append(recording)
            return parts.joined(separator: ": ")
        }
        var did = ["\(participants) participant\(participants == 1 ? "" : "s")",
                   "sent \(packetsSent) packets (\(bytesSent / 1000) kB)"]
        if framesPlayed > 0 { did.append("\(framesPlayed) file frames (\(passes) pass(es))") }
        if messagesSent > 0 || greetings > 0 { did.append("\(messagesSent) data messages (\(greetings) greetings)") }
        if announcements > 0 { did.append("\(spoken) of \(announcements) announcements spoken") }
        if speechFailures > 0 { did.append("\(speechFailures) failed to speak") }
        if echoedTracks > 0 || echoedFrames > 0 { did.append("echoed \(echoedFrames) frames of \(echoedTracks) participant(s)") }
        if captionsFinal > 0 || captionsPartial > 0 {
            did.append("\(captionsFinal) captions (\(captionsPartial) partial)"
                + (captionFramesDropped > 0 ? ", \(captionFramesDropped) audio frames dropped behind the recognizers" : ""))
        }
        if let agent {
            var heard = "heard \(agent.turns) turns (\(agent.turnsWithWords) with words), answered \(agent.answers)"
            if let median = agent.medianLatencyMs { heard += ", median \(median) ms from end of speech to first audio" }
            if agent.bargeIns > 0 { heard += ", \(agent.bargeIns) barge-ins" }
            if agent.framesDropped > 0 { heard += ", \(agent.framesDropped) audio frames dropped behind the listeners" }
            if agent.recognizerFailures > 0 { heard += ", \(agent.recognizerFailures) recognizer failures" }
            if agent.sendFailures > 0 { heard += ", \(agent.sendFailures) data messages not sent" }
            did.append(heard)
        }
        return parts[0] + ": " + did.joined(separator: ", ")
    }
}
