import AgentCore
import Foundation
import Recorder

/// A bot recipe: where a bot joins and as whom, what it publishes, and what it does when things
/// happen in the room. recipes/README.md describes the JSON; ``RecipeParser`` reads it strictly.
///
/// Room settings (`server`, `room`, `token`, `pin`, `create`, `display`, `duration`) are defaults
/// that ``RecipeOverrides`` (CLI flags, a daemon request) replace.
package struct Recipe: Sendable, Equatable {
    package enum Role: String, Sendable, CaseIterable {
        /// Publishes tracks and data: everyone sees it.
        case host
        /// Joins without publishing (the recorder).
        case audience
    }

    package var name: String
    package var description: String?
    package var role: Role
    /// The display name; `name` when the recipe gives none. Load participants add `-1`, `-2`, ….
    package var display: String
    package var server: String?
    package var room: String?
    package var token: String?
    package var pin: String?
    package var create: Bool
    /// Seconds to run; nil runs until stopped (or until a playlist without loop ends).
    package var duration: Double?
    /// How many identical participants join (the load recipe); 1 otherwise.
    package var participants: Int
    package var audio: AudioSource?
    package var video: VideoSource?
    package var behaviours: [Behaviour]
    /// What an audience recipe records.
    package var record: RecordSettings?
    /// A host that transcribes the others and sends captions (``Captions``).
    package var captions: Captions?
    /// A host that listens, answers and stops when interrupted (``VoiceAgent``).
    package var agent: VoiceAgent?
    /// Relative file paths in the recipe resolve against this directory (the recipe file's own).
    package var baseDirectory: URL

    /// The bot must subscribe to the others: it reacts to arrivals or echoes their audio.
    package var listens: Bool {
        if case .echo = audio { return true }
        if captions != nil || agent != nil { return true }
        return behaviours.contains { behaviour in
            switch behaviour.trigger {
            case .userJoined, .userLeft: true
            case .start, .every: false
            }
        }
    }

    /// A path from the recipe, made absolute against ``baseDirectory``.
    package func resolve(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return baseDirectory.appendingPathComponent(path).standardizedFileURL.path
    }
}

extension Recipe {
    /// What a host's audio track carries.
    package enum AudioSource: Sendable, Equatable {
        /// A steady sine: `frequency` in Hz, `amplitude` from 0 to 1 (full scale).
        case tone(frequency: Double, amplitude: Double)
        /// Files played as stored or encoded (see ``FileList``).
        case file(FileList)
        /// Text spoken by espeak-ng when a behaviour says something; silence in between.
        case speech(voice: String, wordsPerMinute: Int)
        /// Every remote participant's audio, mixed and delayed by `delayMilliseconds`.
        case echo(delayMilliseconds: Int)
        /// Silence (a track others can subscribe to; Opus frames of nothing).
        case silence
    }

    /// What a host's video track carries.
    package enum VideoSource: Sendable, Equatable {
        case file(FileList)
        /// A moving square encoded to `codec`: VP8 or H.264, or nil for the room's choice (the
        /// first of the room's codecs that a bot can send).
        case pattern(width: Int, height: Int, framesPerSecond: Int, bitrate: Int, codec: MediaCodec?)
    }

    /// A playlist: entries play one after another, and start over with `loop`.
    package struct FileList: Sendable, Equatable {
        package var playlist: [String]
        package var loop: Bool

        package init(playlist: [String], loop: Bool) {
            self.playlist = playlist
            self.loop = loop
        }
    }

    /// One rule: when `trigger` fires, `send` a data message and/or `say` a text.
    package struct Behaviour: Sendable, Equatable {
        package enum Trigger: Sendable, Equatable {
            /// Once, when the bot is publishing.
            case start
            case userJoined
            case userLeft
            /// At start and then every `seconds`, at most `times` times (nil: no limit).
            case every(seconds: Double, times: Int?)
        }

        package var trigger: Trigger
        package var send: MessageTemplate?
        package var say: String?

        package init(trigger: Trigger, send: MessageTemplate? = nil, say: String? = nil) {
            self.trigger = trigger
            self.send = send
            self.say = say
        }
    }

    /// A data message to send. `{name}` in its text (or in any string of a JSON object) becomes
    /// the display name of the participant that triggered it, or the bot's own name.
    package enum MessageTemplate: Sendable, Equatable {
        case text(String)
        /// Sent as compact JSON text with sorted keys.
        case json(JSONValue)

        package func render(name: String) -> String {
            render(values: ["name": name])
        }

        /// The message with every `{key}` of `values` replaced by its value.
        package func render(values: [String: String]) -> String {
            switch self {
            case .text(let text): return Self.fill(text, values: values)
            case .json(let value): return Self.fill(value, values: values).serialized()
            }
        }

        package static func fill(_ text: String, name: String) -> String {
            fill(text, values: ["name": name])
        }

        /// `text` with each `{key}` of `values` replaced, in one pass: a value that itself holds
        /// `{…}` is not filled again, and unknown `{…}` stay as they are.
        package static func fill(_ text: String, values: [String: String]) -> String {
            guard text.contains("{") else { return text }
            var result = ""
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{") {
                result += rest[..<open]
                let after = rest.index(after: open)
                if let close = rest[after...].firstIndex(of: "}"), let value = values[String(rest[after..<close])] {
                    result += value
                    rest = rest[rest.index(after: close)...]
                } else {
                    result.append("{")
                    rest = rest[after...]
                }
            }
            return result + rest
        }

        private static func fill(_ value: JSONValue, values: [String: String]) -> JSONValue {
            switch value {
            case .string(let text): return .string(fill(text, values: values))
            case .array(let items): return .array(items.map { fill($0, values: values) })
            case .object(let object): return .object(object.mapValues { fill($0, values: values) })
            default: return value
            }
        }
    }

    /// The recorder recipe's settings, handed to the ``RecordingLauncher``.
    package struct RecordSettings: Sendable, Equatable {
        /// As `agentd record --formats`: webm, wav, ogg, mix, data, composite, transcript.
        package var formats: [String]
        /// As `agentd record --out`: used as given; nil for the default directory.
        package var out: String?
        /// As `--max-duration`, `--max-bytes`, `--idle-timeout` (`max_duration`, `max_bytes`,
        /// `idle_timeout`; 0 or absent: no idle end).
        package var limits: RecordingLimits
        /// As `--segment` (`segment`, seconds).
        package var segments: RecordingSegments?
        /// As `--notice` (`notice`: data, speech or both).
        package var notice: RecordingNotice?
        /// As `agentd record --composite-*`: room.webm's size, rate and layout.
        package var composite = CompositeSettings()

        package init(formats: [String], out: String?, limits: RecordingLimits = RecordingLimits(),
                     segments: RecordingSegments? = nil, notice: RecordingNotice? = nil) {
            self.formats = formats
            self.out = out
            self.limits = limits
            self.segments = segments
            self.notice = notice
        }
    }
}
