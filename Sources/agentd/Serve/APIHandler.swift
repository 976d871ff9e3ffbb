import Agent
import AgentdCore
import Foundation

/// Answers the daemon's HTTP requests: asks ``RequestAdmission`` (the bearer token on /v1, the
/// route, the body limit), and turns job calls into ``JobRegistry`` calls. One line per request
/// goes to the log (method, path, status; never a header or a body).
struct APIHandler: Sendable {
    let admission: RequestAdmission
    let registry: JobRegistry
    /// With `serve --redis`: the jobs live in the queue, and `registry` holds none.
    let queued: QueuedJobs?
    let settings: ServeSettings
    /// The process's transport loops, where recording jobs run.
    let loops: LoopGroup
    let botFactory: BotJobFactory
    let log: ServeLog

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let decision = admission.decide(request, bodyBytes: request.body.count)
        let response: HTTPResponse
        switch decision {
        case .refuse(let refusal):
            response = refusal
        case .admit(let route, let id):
            do {
                response = try await answer(route, id: id ?? "", request: request)
            } catch {
                response = error.response
            }
            if route == .health || route == .metrics { return response }  // probes and scrapers would drown the log
        }
        logAnswer(request, response)
        return response
    }

    /// The request's log line; also for the requests the HTTP server refuses before their body.
    func logAnswer(_ request: HTTPRequest, _ response: HTTPResponse) {
        log.info("http", ["method": request.method, "path": request.path, "status": String(response.status)])
    }

    private func answer(_ route: APIRoute, id: String, request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        switch route {
        case .health:
            if let queued {
                let up = await queued.redisAnswers()
                return .json(up ? 200 : 503, ["status": up ? "ok" : "redis_down", "redis": up ? "up" : "down", "accepting_jobs": .bool(up)])
            }
            let jobs = await registry.metricsSnapshot()
            let accepting = await registry.isAccepting
            return .json(200, [
                "status": accepting ? "ok" : "stopping", "accepting_jobs": .bool(accepting),
                "jobs_running": .integer(Int64((jobs.byState[.running] ?? 0) + (jobs.byState[.queued] ?? 0))),
            ])
        case .metrics:
            let queue = await queued?.metrics() ?? ""
            return .text(200, queue + DaemonMetrics.render(jobs: await registry.metricsSnapshot(), process: .current()), contentType: MetricsText.contentType)
        case .openAPI:
            return .json(200, OpenAPIDocument.document)
        case .createRecording:
            let (jobID, body) = try JobSubmission.split(try request.jsonBody())
            if let queued { return try await queued.submitRecording(body, id: jobID) }
            if let jobID, let existing = await registry.job(jobID) {
                guard existing["kind"]?.stringValue == JobKind.recording.rawValue else {
                    throw APIError(status: 409, message: "job \(jobID) exists already, as a \(existing["kind"]?.stringValue ?? "other") job")
                }
                return .json(200, existing)
            }
            let recording = try claimedRecording(body)
            log.redact(recording.credentials.token)
            log.redact(recording.credentials.pin)
            log.redact(JanusURL.credentials(recording.server))
            let log = self.log
            let job = RoomRecordingJob(request: recording, ice: settings.ice, loops: loops) { line in log.info(line, ["room": recording.room]) }
            do {
                return try await submit(.recording, RecordingJobWork(job: job), id: jobID)
            } catch {
                recording.removeUnusedOutput()
                throw error
            }
        case .createBot:
            let (jobID, body) = try JobSubmission.split(try request.jsonBody())
            let work = try bot(body)
            if let queued { return try await queued.submitBot(body, id: jobID, details: work.details) }
            return try await submit(.bot, work, id: jobID)
        case .listJobs:
            if let queued { return .json(200, ["jobs": .array(try await queued.list())]) }
            return .json(200, ["jobs": .array(await registry.list())])
        case .getJob:
            guard let job = try await job(id) else { throw APIError(status: 404, message: "no job \(id)") }
            return .json(200, job)
        case .getJobReport:
            guard let job = try await job(id) else { throw APIError(status: 404, message: "no job \(id)") }
            return try JobReport.response(for: job, id: id)
        case .deleteJob:
            let stopped = if let queued { try await queued.stop(id) } else { await registry.stop(id) }
            guard let job = stopped else { throw APIError(status: 404, message: "no job \(id)") }
            return .json(200, job)
        }
    }

    private func job(_ id: String) async throws(APIError) -> JSONValue? {
        if let queued { return try await queued.job(id) }
        return await registry.job(id)
    }

    /// The body's recording with its directory made: claimed now (mkdir of a new directory), so
    /// of two requests for one `out` exactly one gets it and the other a 409 at once. A default
    /// directory another job of the room took in the same second moves on to the next suffix.
    private func claimedRecording(_ body: JSONValue) throws(APIError) -> RecordingRequest {
        var recording = try RecordingJobBody.request(body, settings: settings)
        var attempts = 1
        while true {
            do {
                try recording.prepareOutput()
                return recording
            } catch .alreadyExists where body["out"] == nil && attempts < 5 {
                attempts += 1
                recording = try RecordingJobBody.request(body, settings: settings, startedAt: recording.startedAt)
            } catch {
                throw RecordingJobBody.outputError(error, out: body["out"]?.stringValue)
            }
        }
    }

    private func submit(_ kind: JobKind, _ work: any JobWork, id: String?) async throws(APIError) -> HTTPResponse {
        do {
            let submitted = try await registry.submit(kind: kind, work: work, id: id)
            return .json(submitted.created ? 201 : 200, submitted.job)
        } catch {
            switch error {
            case .full: throw APIError(status: 429, message: error.description)
            case .shuttingDown: throw APIError(status: 503, message: error.description)
            case .idTaken: throw APIError(status: 409, message: error.description)
            }
        }
    }

    /// `POST /v1/bots`: the body's request, made into a job by the bot factory.
    private func bot(_ body: JSONValue) throws(APIError) -> any JobWork {
        let request = try BotJobBody.request(body, settings: settings)
        log.redact(request.join.credentials.token)
        log.redact(request.join.credentials.pin)
        log.redact(request.join.server.flatMap(JanusURL.credentials))
        do {
            return try botFactory(request)
        } catch {
            throw APIError(status: error.status, message: error.message)
        }
    }
}
