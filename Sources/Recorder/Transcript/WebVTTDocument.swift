/// `captions.vtt`: a WebVTT file (W3C WebVTT, §4) of utterances, one cue each, speaker-labelled
/// with a voice span, in start-time order as the format requires.
///
///     WEBVTT
///
///     00:00:01.200 --> 00:00:03.450
///     <v Alice>hello everyone
///
/// Cue text escapes `&`, `<` and `>` (§4.2.2), so a transcript can never open a tag; a voice
/// name drops `>` and line breaks, and a cue's text is kept on one line (so no "-->" or blank
/// line in what someone said can end or retime a cue). An empty cue (an end
/// before its start, after clamping) gets 1 ms.
enum WebVTTDocument {
    static func render(_ utterances: [TranscriptUtterance]) -> String {
        var text = "WEBVTT\n"
        let ordered = utterances.enumerated().sorted { ($0.element.startMs, $0.offset) < ($1.element.startMs, $1.offset) }
        for (_, utterance) in ordered {
            let start = max(0, utterance.startMs)
            let end = max(start + 1, utterance.endMs)
            text += "\n\(timestamp(start)) --> \(timestamp(end))\n"
            let voice = utterance.participant.filter { $0 != ">" && !$0.isNewline }
            text += "<v \(escaped(voice))>\(escaped(oneLine(utterance.text)))\n"
        }
        return text
    }

    /// `hh:mm:ss.ttt` (hours may exceed two digits, §4.4).
    static func timestamp(_ ms: Int64) -> String {
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, seconds = ms / 1000 % 60, millis = ms % 1000
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// A cue ends at its first blank line: one line. ("-->" cannot read as timings once
    /// escaped: its `>` is `&gt;`.)
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
