import AgentCore
import Recorder

extension RecordingJobBody {
    /// The keys of the body's `composite` object, as `agentd record`'s `--composite-*` flags.
    package static let compositeKeys: Set<String> = ["size", "fps", "layout"]

    /// `composite`: `{"size": "WxH", "fps": N, "layout": "grid" | "speaker"}`, every key optional
    /// (absent: 1280x720, 15, grid); used when `formats` has composite.
    package static func composite(_ value: JSONValue?) throws(APIError) -> CompositeSettings {
        let object: [String: JSONValue]
        switch value {
        case nil, .null?: return CompositeSettings()
        case .object(let fields)?: object = fields
        default: throw .badRequest("composite must be an object with size, fps and layout")
        }
        let unknown = object.keys.filter { !compositeKeys.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw .badRequest("composite: unknown field(s) \(unknown.joined(separator: ", ")); known: \(compositeKeys.sorted().joined(separator: ", "))")
        }
        let fps: String?
        switch object["fps"] {
        case nil, .null?: fps = nil
        case .integer(let number)?: fps = String(number)
        default: throw .badRequest("composite.fps must be a whole number of frames per second, 1 to 60")
        }
        let (size, layout) = (try string(object, "size"), try string(object, "layout"))
        do {
            return try CompositeSettings().applying(size: size, framesPerSecond: fps, layout: layout)
        } catch {
            throw .badRequest("composite: \(error)")
        }
    }
}
