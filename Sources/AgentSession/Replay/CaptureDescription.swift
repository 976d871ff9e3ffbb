import AgentCore
import Foundation

/// `capture.json`, beside `capture.rtpdump` in a directory that `agentd record --capture` wrote:
/// what the packets cannot say themselves. Which SSRC or MID belongs to whom (the routes of each
/// negotiation, with the dump offset they came at), who the participants were, and when the
/// dump's offset 0 was on the wall clock.
public struct CaptureDescription: Codable, Equatable, Sendable {
    public static let fileName = "capture.json"
    public static let dumpFileName = "capture.rtpdump"
    /// The largest `capture.json` read (a description has a few routes per participant).
    public static let maxDescriptionBytes = 4 << 20
    public static let maxRouteChanges = 10_000
    public static let maxParticipants = 10_000

    public struct RouteChange: Codable, Equatable, Sendable {
        public var atMilliseconds: Int64
        public var routes: [CapturedRoute]

        enum CodingKeys: String, CodingKey {
            case routes
            case atMilliseconds = "at_ms"
        }

        public init(atMilliseconds: Int64, routes: [CapturedRoute]) {
            self.atMilliseconds = atMilliseconds
            self.routes = routes
        }
    }

    public struct Participant: Codable, Equatable, Sendable {
        public var id: String
        public var display: String

        public init(id: String, display: String) {
            self.id = id
            self.display = display
        }
    }

    public var version = 1
    /// Wall time of the dump's offset 0, ns since 1970.
    public var startedAtNanoseconds: Int64
    public var routeChanges: [RouteChange] = []
    public var participants: [Participant] = []
    /// RTP packets and sender reports written, and those lost to a full disk queue or the size limit.
    public var packets = 0
    public var dropped = 0

    enum CodingKeys: String, CodingKey {
        case version, participants, packets, dropped
        case startedAtNanoseconds = "started_at_ns"
        case routeChanges = "route_changes"
    }

    public init(startedAtNanoseconds: Int64) {
        self.startedAtNanoseconds = startedAtNanoseconds
    }

    /// Reads and checks `capture.json` in `directory`.
    public static func read(directory: String) throws(CaptureError) -> CaptureDescription {
        let path = directory + "/" + fileName
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxDescriptionBytes + 1) ?? Data()
        } catch {
            throw .invalidDescription("\(path): \(error.localizedDescription)")
        }
        do {
            return try parse(data)
        } catch {
            throw .invalidDescription("\(path): \(error)")
        }
    }

    /// Reads and checks a description's JSON: at most ``maxDescriptionBytes``, nested at most 64 deep.
    public static func parse(_ data: Data) throws(CaptureError) -> CaptureDescription {
        // Our bounded parser first (size, depth): Foundation's decoder then reads a sane text.
        do {
            _ = try JSONValue(parsing: data, maxDepth: 64, maxBytes: maxDescriptionBytes)
        } catch {
            throw .invalidDescription("\(error)")
        }
        let description: CaptureDescription
        do {
            description = try JSONDecoder().decode(CaptureDescription.self, from: data)
        } catch {
            throw .invalidDescription("\(error)")
        }
        try description.validate()
        return description
    }

    /// Throws when a field is out of bounds: a newer version, too many changes or participants,
    /// route changes out of order, or a route that is none (``CapturedRoute/route()``).
    public func validate() throws(CaptureError) {
        guard version == 1 else { throw .invalidDescription("version \(version) (this agentd reads 1)") }
        // 1970 to 2100: the replay's clocks count on from it.
        guard (0...4_102_444_800_000_000_000).contains(startedAtNanoseconds) else {
            throw .invalidDescription("started_at_ns \(startedAtNanoseconds) is not between 1970 and 2100")
        }
        guard routeChanges.count <= Self.maxRouteChanges, participants.count <= Self.maxParticipants else {
            throw .invalidDescription("more than \(Self.maxRouteChanges) route changes or \(Self.maxParticipants) participants")
        }
        var last: Int64 = 0
        for change in routeChanges {
            // Offsets are the dump's (32-bit milliseconds): none past them.
            guard change.atMilliseconds >= last, change.atMilliseconds <= Int64(UInt32.max), change.routes.count <= 256 else {
                throw .invalidDescription("route changes out of order or too large at \(change.atMilliseconds) ms")
            }
            last = change.atMilliseconds
            for route in change.routes { _ = try route.route() }
        }
        for participant in participants where participant.id.isEmpty || participant.id.utf8.count > 256 || participant.display.utf8.count > 1024 {
            throw .invalidDescription("a participant's id or name is empty or too long")
        }
    }

    /// Writes `capture.json` into `directory` (a temporary file renamed over it).
    public func write(directory: String) throws(CaptureError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(self).write(to: URL(fileURLWithPath: directory + "/" + Self.fileName), options: .atomic)
        } catch {
            throw .cannotCreate("\(Self.fileName): \(error.localizedDescription)")
        }
    }
}
