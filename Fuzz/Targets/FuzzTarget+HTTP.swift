import Agent
import AgentdCore
import Foundation

extension FuzzTarget {
    /// The daemon's API, from a raw HTTP/1.1 request: its request line and headers (read here as
    /// libsoup hands them over: method, path without the query, headers by lowercased name) into
    /// ``RequestAdmission`` with the declared Content-Length and again with the body read, the
    /// route of any method and path (``Router``), and the body as JSON into each API body type
    /// (``RecordingJobBody``, ``BotJobBody``, and an inline recipe into ``RecipeParser``).
    ///
    /// Admission depends on the body only through its size (refusals before the body stay the
    /// same; an admitted route is refused 413 past the limit, and only then); an admitted route
    /// is the path's own; every refusal is the API's JSON error shape; a recording's directory
    /// stays under the output root.
    public static let http = FuzzTarget(name: "http", summary: "RequestAdmission.decide, Router.match, APIAuth, HTTPRequest.jsonBody, RecordingJobBody, BotJobBody", maxInputLength: 8192) { bytes in
        let wire = FuzzHTTPRequest(Array(bytes))
        let admission = RequestAdmission(auth: APIAuth(token: apiToken))
        let head = HTTPRequest(method: wire.method, path: wire.path, headers: wire.headers)
        let request = HTTPRequest(method: wire.method, path: wire.path, headers: wire.headers, body: Data(wire.body))

        let first = admission.decide(head, bodyBytes: 0)
        checkAdmission(first, head, admission)
        for bodyBytes in [wire.contentLength, wire.body.count, RequestAdmission.maxBodyBytes, RequestAdmission.maxBodyBytes + 1, Int.max, -1] {
            let later = admission.decide(head, bodyBytes: bodyBytes)
            switch first {
            case .refuse:
                FuzzCheck.expect(later == first, "refused before the body as \(first), with \(bodyBytes) body bytes as \(later)")
            case .admit:
                let expected = bodyBytes <= RequestAdmission.maxBodyBytes ? first : .refuse(.error(413, "the body is larger than \(RequestAdmission.maxBodyBytes) bytes"))
                FuzzCheck.expect(later == expected, "admitted as \(first), with \(bodyBytes) body bytes \(later)")
            }
        }
        FuzzCheck.expect(admission.decide(request, bodyBytes: request.body.count) == admission.decide(head, bodyBytes: wire.body.count),
                         "the whole request and its head decide differently")

        // Each body type reads any body, admitted or not: the route only picks which one runs.
        guard let body = try? request.jsonBody() else { return }
        checkRecordingBody(body)
        checkBotBody(body)
    }

    /// The API token the fuzzed daemon checks; the seeds send it.
    private static let apiToken = "fuzz-api-token-0123456789"
    /// Roots that do not exist, so a body's `out` is only ever checked, never found or made.
    private static let daemonSettings = ServeSettings(
        outputRoot: "/nonexistent/agentd-fuzz/recordings", maxJobs: 4, defaultServer: "ws://10.77.0.2:8188/",
        ice: .ice(ICEConfiguration(addresses: ["10.77.0.1"]), credentials: nil),
        mediaRoot: "/nonexistent/agentd-fuzz/media")
    private static let requestTime = Date(timeIntervalSince1970: 1_700_000_000)

    private static func checkAdmission(_ decision: RequestAdmission.Decision, _ head: HTTPRequest, _ admission: RequestAdmission) {
        let match = Router.match(method: head.method, path: head.path)
        switch decision {
        case .admit(let route, let id):
            FuzzCheck.expect(match == .route(route, id: id), "admitted \(route) where the router says \(match)")
            FuzzCheck.expect(route.method == head.method || (head.method == "HEAD" && route.method == "GET"), "\(head.method) admitted to \(route)")
            if route.requiresAuth { FuzzCheck.expect(admission.auth.allows(head), "\(route) admitted without the token") }
            // The route's path with its `{id}` filled in is the request's path.
            let filled = route.path.replacingOccurrences(of: "{id}", with: id ?? "")
            FuzzCheck.expect(filled == head.path && (route.path.contains("{id}") == (id != nil)), "\(head.path) routed to \(route.path) with id \(String(describing: id))")
            if let id { FuzzCheck.expect(!id.isEmpty && !id.contains("/"), "id \(id)") }
        case .refuse(let response):
            // The API's error shape, whatever the path and method put in its message.
            let value = try? JSONValue(parsing: response.body)
            FuzzCheck.expect(value?["status"] == .integer(Int64(response.status)) && value?["error"]?.stringValue != nil,
                             "a \(response.status) answered \(String(decoding: response.body, as: UTF8.self))")
            switch match {
            case .methodNotAllowed(let allowed):
                FuzzCheck.expect(!allowed.isEmpty && !allowed.contains(head.method), "\(head.method) refused, allowed \(allowed)")
            case .route, .notFound:
                break
            }
            if (head.path == "/v1" || head.path.hasPrefix("/v1/")) && !admission.auth.allows(head) {
                FuzzCheck.expect(response.status == 401, "\(head.path) without the token answered \(response.status)")
            }
        }
    }

    private static func checkRecordingBody(_ body: JSONValue) {
        guard let recording = try? RecordingJobBody.request(body, settings: daemonSettings, startedAt: requestTime) else { return }
        FuzzCheck.expect(ChannelName.isValid(recording.room), "room \(recording.room)")
        FuzzCheck.expect(DisplayName.isValid(recording.display), "display \(recording.display)")
        FuzzCheck.expect(JanusURL.parse(recording.server) != nil, "server \(recording.server)")
        if let duration = recording.duration { FuzzCheck.expect(JobDuration.isValid(duration), "duration \(duration)") }
        FuzzCheck.expect(!recording.formats.names.isEmpty, "no formats")
        // API callers never write outside the output root.
        let path = recording.directory.path
        let root = daemonSettings.outputRoot + "/"
        FuzzCheck.expect(path.hasPrefix(root) && !path.split(separator: "/").contains("..") && !path.split(separator: "/").contains("."),
                         "a recording in \(path)")
    }

    private static func checkBotBody(_ body: JSONValue) {
        guard let bot = try? BotJobBody.request(body, settings: daemonSettings) else { return }
        if let room = bot.join.room { FuzzCheck.expect(ChannelName.isValid(room), "room \(room)") }
        if let server = bot.join.server { FuzzCheck.expect(JanusURL.parse(server) != nil, "server \(server)") }
        if let display = bot.join.display { FuzzCheck.expect(DisplayName.isValid(display), "display \(display)") }
        if let duration = bot.duration { FuzzCheck.expect(JobDuration.isValid(duration), "duration \(duration)") }
        switch bot.recipe {
        case .object:
            let base = URL(fileURLWithPath: daemonSettings.mediaRoot ?? "/", isDirectory: true)
            _ = try? RecipeParser.parse(bot.recipe, baseDirectory: base)
        case .string(let name):
            FuzzCheck.expect(!name.isEmpty, "an empty recipe name")
        default:
            FuzzCheck.expect(false, "recipe \(bot.recipe)")
        }
    }
}
