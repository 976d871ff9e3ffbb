import Foundation
import RecordingReport
import TestSupport
import Testing

/// `agentd record --formats transcript` against real speech: `agentd play` of espeak-ng
/// sentences through Janus; transcript.jsonl and captions.vtt carry the words, at the times the
/// recording's own WAV has speech (report.json's speaking intervals).
@Suite("RecordTranscript", .enabled(if: LabEnvironment.shouldRun), .serialized)
struct RecordTranscriptTests {
    static let sentences = ["the quick brown fox jumps over the lazy dog", "please turn on the lights in the kitchen"]

    /// The two sentences with 1.5 s of silence before each, as one 48 kHz WAV.
    static func speech(in scratch: ScratchDirectory) async throws -> String {
        var parts: [String] = []
        for (index, sentence) in sentences.enumerated() {
            let spoken = scratch.path("s\(index).wav")
            let run = try await runTool("/usr/bin/espeak-ng", ["-v", "en-us+klatt2", "-s", "150", "-w", spoken, sentence])
            try #require(run.status == 0, "espeak-ng: \(run.errors)")
            let silence = scratch.path("q\(index).wav")
            _ = try await runTool("/usr/bin/sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", silence, "trim", "0", "1.5"])
            parts += [silence, spoken]
        }
        let out = scratch.path("speech.wav")
        let joined = try await runTool("/usr/bin/sox", parts + ["-r", "48000", out])
        try #require(joined.status == 0, "sox: \(joined.errors)")
        return out
    }

    @Test("espeak-ng sentences played into the room: transcript.jsonl and a valid captions.vtt with the words, within 1 s of the speech")
    func transcribesPlayedSpeech() async throws {
        try await SharedResourceLock.lab.withExclusive {
            let lab = try LabEnvironment.required()
            let scratch = try ScratchDirectory("transcript")
            let room = LabEnvironment.freshRoom("transcript")
            let out = scratch.path("recording")
            let player = try ChildProcess(
                AgentdBinary.path,
                ["play", "--server", lab.janusWS, "--room", room, "--display", "speaker", "--audio", try await Self.speech(in: scratch),
                 "--create", "--loop", "--duration", "60", "--ice-allow", lab.values["LAB_IFACE"] ?? "agentd-lab0"],
                name: "agentd play")
            defer { player.terminate() }
            try await pollUntil(timeout: .seconds(30), "agentd play to publish") {
                let list = try? await runTool(AgentdBinary.path, ["participants", "--server", lab.janusWS, "--room", room])
                return list?.status == 0 && list?.output.contains("speaker") == true
            }
            let recording = try RecordH264Tests.record(lab, room: room, out: out, seconds: 24, ["--formats", "wav,transcript"])
            defer { recording.terminate() }
            try await pollUntil(timeout: .seconds(60), "agentd record to finish") { !recording.isRunning }
            #expect(recording.exitStatus == 0, "\(recording.stderr)")

            let lines = try String(contentsOfFile: out + "/transcript.jsonl", encoding: .utf8).split(separator: "\n")
            let utterances = try lines.map { line -> (who: String, start: Int, end: Int, text: String) in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return (object["participant"] as? String ?? "", object["start_ms"] as? Int ?? -1, object["end_ms"] as? Int ?? -1,
                        object["text"] as? String ?? "")
            }
            for utterance in utterances { print("RecordTranscript: \(utterance.start)-\(utterance.end) ms \(utterance.who): \(utterance.text)") }
            #expect(utterances.count >= 3, "\(utterances)")
            #expect(utterances.allSatisfy { $0.who == "speaker" })
            #expect(zip(utterances, utterances.dropFirst()).allSatisfy { $0.start <= $1.start }, "in time order")

            // The words, each sentence heard at least once.
            // pocketsphinx's word error rate is about 30 % on espeak-ng's voice (scripts/bench speech):
            // the command-like sentence comes through whole, the pangram by about half ("over the
            // lazy dog" always, "quick brown fox jumps" seldom), so each sentence needs a third of
            // its words and the two together two thirds.
            var bests: [Double] = []
            for sentence in Self.sentences {
                let best = utterances.map { wordOverlap($0.text, sentence) }.max() ?? 0
                print(String(format: "RecordTranscript: best overlap %.2f for \"%@\"", best, sentence))
                #expect(best >= 0.33, "\"\(sentence)\": best overlap \(best)")
                bests.append(best)
            }
            #expect(bests.reduce(0, +) / Double(max(1, bests.count)) >= 0.66, "\(bests)")
            // The times: every utterance starts within 1 s of where the recorded WAV has speech.
            let report = try JSONDecoder().decode(RecordingReport.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/report.json")))
            let spans = try #require(report.participants.first { $0.name == "speaker" }).speaking
            print("RecordTranscript: speech in speaker.wav: \(spans.map { "\($0.startMs)-\($0.endMs)" })")
            for utterance in utterances {
                let near = spans.contains { abs(Int($0.startMs) - utterance.start) <= 1000 || (Int($0.startMs) <= utterance.start && utterance.start <= Int($0.endMs)) }
                #expect(near, "\(utterance.start) ms is not within 1 s of speech: \(spans)")
            }

            // captions.vtt: WebVTT that ffmpeg reads, one cue per utterance, at the same times.
            let vtt = try String(contentsOfFile: out + "/captions.vtt", encoding: .utf8)
            #expect(vtt.hasPrefix("WEBVTT\n"))
            let cues = try await runTool("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=pts_time", "-of", "csv=p=0", out + "/captions.vtt"])
            #expect(cues.errors.isEmpty, "\(cues.errors)")
            let starts = cues.output.split(separator: "\n").compactMap { Double($0) }.map { Int(($0 * 1000).rounded()) }
            #expect(starts == utterances.map(\.start), "\(starts)")
            let manifest = try RecordH264Tests.manifest(out)
            let files = (manifest["files"] as? [[String: Any]] ?? []).filter { $0["format"] as? String == "transcript" }
            #expect(files.compactMap { $0["path"] as? String }.sorted() == ["captions.vtt", "transcript.jsonl"])
            #expect(files.allSatisfy { $0["utterances"] as? Int == utterances.count && $0["error"] == nil }, "\(files)")
        }
    }
}
