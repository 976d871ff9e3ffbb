import Agent
import AgentdCore

/// The API described as OpenAPI 3.0 (served at /v1/openapi.json). A test checks it against
/// ``APIRoute`` and against real responses: keep the three in step.
enum OpenAPIDocument {
    static var document: JSONValue {
        [
            "openapi": "3.0.3",
            "info": [
                "title": "agentd", "version": .string(CommandLineTool.version),
                "description": "Records Janus VideoRoom rooms and runs bots on demand. Every /v1 path needs `Authorization: Bearer <token>`.",
            ],
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]],
                "schemas": schemas,
            ],
            "security": [["bearer": []]],
            "paths": paths,
        ]
    }

    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    private static func json(_ schema: JSONValue) -> JSONValue { ["application/json": ["schema": schema]] }

    private static func answer(_ description: String, _ schema: String = "Error") -> JSONValue {
        ["description": .string(description), "content": json(ref(schema))]
    }

    private static let errors: [String: JSONValue] = [
        "401": answer("missing or wrong bearer token"),
    ]

    private static let idParameter: JSONValue = [
        "name": "id", "in": "path", "required": true, "schema": ["type": "string"],
    ]

    private static func create(_ summary: String, body: String, more: [String: JSONValue] = [:]) -> JSONValue {
        [
            "summary": .string(summary),
            "requestBody": ["required": true, "content": json(ref(body))],
            "responses": .object(errors.merging([
                "201": answer("the job, just created", "Job"),
                "200": answer("a job with the body's id existed: that job, and nothing new was made", "Job"),
                "409": answer("out is taken, or the body's id names a job of another kind"),
                "400": answer("bad body: not JSON, a missing or invalid field"),
                "429": answer("as many jobs run as max_jobs allows"),
                "503": answer("the daemon is shutting down, or (serve --redis) the job queue is unreachable"),
            ].merging(more) { $1 }) { $1 }),
        ]
    }

    private static var paths: JSONValue {
        [
            "/healthz": ["get": [
                "summary": "Health (no token needed)", "security": [],
                "responses": ["200": answer("up", "Health")],
            ]],
            "/metrics": ["get": [
                "summary": "Prometheus text exposition (no token needed)", "security": [],
                "responses": ["200": ["description": "metrics", "content": ["text/plain": ["schema": ["type": "string"]]]]],
            ]],
            "/v1/openapi.json": ["get": [
                "summary": "This document",
                "responses": .object(errors.merging(["200": ["description": "the OpenAPI document", "content": json(["type": "object"])]]) { $1 }),
            ]],
            "/v1/recordings": ["post": create("Start recording a room", body: "RecordingRequest", more: [
                "409": answer("out already exists or holds a recording (each job makes a new directory)"),
                "500": answer("the output root cannot be written"),
            ])],
            "/v1/bots": ["post": create("Start a bot from a recipe (inline or by name)", body: "BotRequest")],
            "/v1/jobs": ["get": [
                "summary": "Every job, oldest first (ended jobs are kept for a while)",
                "responses": .object(errors.merging(["200": answer("the jobs", "JobList")]) { $1 }),
            ]],
            "/v1/jobs/{id}": [
                "parameters": [idParameter],
                "get": [
                    "summary": "One job",
                    "responses": .object(errors.merging(["200": answer("the job", "Job"), "404": answer("no such job")]) { $1 }),
                ],
                "delete": [
                    "summary": "Stop a job cleanly (its files are finalized); answers with the job, now stopping",
                    "responses": .object(errors.merging(["200": answer("the job", "Job"), "404": answer("no such job")]) { $1 }),
                ],
            ],
            "/v1/jobs/{id}/report": [
                "parameters": [idParameter],
                "get": [
                    "summary": "A recording job's QA report (report.json, written when the recording stops)",
                    "responses": .object(errors.merging([
                        "200": answer("the report", "Report"),
                        "404": answer("no such job, not a recording, or no report yet (the recording is still running)"),
                    ]) { $1 }),
                ],
            ],
        ]
    }

    private static var schemas: JSONValue {
        [
            "Error": [
                "type": "object", "required": ["error", "status"],
                "properties": ["error": ["type": "string"], "status": ["type": "integer"]],
            ],
            "Health": [
                "type": "object", "required": ["status", "accepting_jobs"],
                "description": "with serve --redis: status ok or redis_down (503), and redis up or down, instead of jobs_running",
                "properties": ["status": ["type": "string"], "jobs_running": ["type": "integer"], "accepting_jobs": ["type": "boolean"],
                               "redis": ["type": "string", "enum": ["up", "down"]]],
            ],
            "JobList": ["type": "object", "required": ["jobs"], "properties": ["jobs": ["type": "array", "items": ref("Job")]]],
            "Job": [
                "type": "object",
                "required": ["id", "kind", "state", "error", "created_at", "ended_at", "participants", "bytes_written", "stats"],
                "properties": [
                    "id": ["type": "string"],
                    "kind": ["type": "string", "enum": .array(JobKind.allCases.map { .string($0.rawValue) })],
                    "state": ["type": "string", "enum": .array(JobState.allCases.map { .string($0.rawValue) })],
                    "error": ["type": "string", "nullable": true, "description": "why the job failed"],
                    "created_at": ["type": "string", "format": "date-time"],
                    "ended_at": ["type": "string", "format": "date-time", "nullable": true],
                    "participants": ["type": "integer", "description": "participants in the room now"],
                    "bytes_written": ["type": "integer"],
                    "stats": [
                        "type": "object",
                        "properties": ["packets": ["type": "integer"], "bytes": ["type": "integer"], "lost": ["type": "integer"],
                                       "nacks": ["type": "integer"], "plis": ["type": "integer"], "writer_drops": ["type": "integer"]],
                    ],
                    "out": ["type": "string", "description": "recordings: the recording directory"],
                    "room": ["type": "string"], "server": ["type": "string"],
                    "stopped_by": ["type": "string", "description": "once done: duration, limit, idle, request, room_destroyed..."],
                    "worker": ["type": "string", "nullable": true, "description": "serve --redis: the worker that holds (or held) the job"],
                    "attempts": ["type": "integer", "description": "serve --redis: the runs so far (failures and lapsed leases start another)"],
                    "reclaims": ["type": "integer", "description": "serve --redis: takeovers from a worker whose lease lapsed"],
                    "dead_lettered": ["type": "boolean", "description": "serve --redis: it used up its attempts; error says why"],
                ],
            ],
            "Report": [
                "type": "object", "description": "report.json: see the README's recording report section",
                "required": ["version", "room", "state", "started_at", "duration_ms", "participants", "connection_gaps", "reconnects"],
                "properties": [
                    "version": ["type": "integer"], "room": ["type": "string"], "state": ["type": "string"],
                    "started_at": ["type": "string", "format": "date-time"], "duration_ms": ["type": "integer"],
                    "participants": ["type": "array", "items": ["type": "object"]],
                    "connection_gaps": ["type": "array", "items": ["type": "object"]], "reconnects": ["type": "integer"],
                ],
            ],
            "RecordingRequest": [
                "type": "object", "required": ["room"], "additionalProperties": false,
                "properties": [
                    "id": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
                           "description": "the job's id, chosen by the client: a second submit with it returns the first job (200) instead of making one"],
                    "server": ["type": "string", "description": "Janus WebSocket URL; default: the config's server"],
                    "room": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"],
                    "token": ["type": "string", "description": "Janus core token"],
                    "pin": ["type": "string"],
                    "display": ["type": "string", "minLength": 1, "maxLength": 64, "description": "at most 64 characters and 256 bytes"],
                    "formats": ["description": "webm, wav, ogg, mix, data, composite, transcript: a list or a comma-separated string",
                                "oneOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]]],
                    "composite": [
                        "type": "object", "additionalProperties": false,
                        "description": "room.webm (format composite): one VP8 picture of the room and the mix as Opus",
                        "properties": [
                            "size": ["type": "string", "pattern": "^[0-9]{2,4}[xX][0-9]{2,4}$",
                                     "description": "WxH, even numbers from 64x64 to 3840x2160; default 1280x720"],
                            "fps": ["type": "integer", "minimum": 1, "maximum": 60, "description": "default 15"],
                            "layout": ["type": "string", "enum": ["grid", "speaker"], "description": "default grid"],
                        ],
                    ],
                    "duration": ["type": "number", "exclusiveMinimum": 0, "maximum": 604_800,
                                 "description": "seconds (at most 7 days); without it, records until DELETE"],
                    "out": ["type": "string", "description": "a new directory under the output root; default <room>-<UTC stamp> (-2, -3, ... if taken)"],
                    "create": ["type": "boolean", "description": "create the room if it is missing"],
                    "max_duration": ["type": "number", "exclusiveMinimum": 0, "maximum": 604_800,
                                     "description": "seconds; ends the recording with stopped_by limit"],
                    "max_bytes": ["description": "bytes (or a string with K, M, G, T: powers of 1024); ends the recording with stopped_by limit",
                                  "oneOf": [["type": "integer", "minimum": 1], ["type": "string"]]],
                    "notice": ["type": "string", "enum": ["data", "speech", "both"],
                               "description": "tell the room recording started/stopped (data messages, espeak-ng speech, or both) from a participant under display"],
                    "segment": ["type": "number", "minimum": 1, "maximum": 86_400,
                                "description": "seconds per part: every file cut into <name>.partN files, listed with start_ms/end_ms"],
                    "continue": ["type": "boolean", "description": """
                        true (needs out): continue the recording of the room in out (its recorder died) as its next part: new \
                        <name>.partN files, one manifest, the gap listed with reason continued; a missing or empty out starts a new \
                        one; another room's recording, an unreadable manifest or files without one are a 409
                        """],
                    "idle_timeout": ["type": "number", "minimum": 0, "maximum": 604_800,
                                     "description": "seconds without a publisher before the recording ends (stopped_by idle); 0: never; default 60"],
                ],
            ],
            "BotRequest": [
                "type": "object", "required": ["recipe"], "additionalProperties": false,
                "properties": [
                    "id": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
                           "description": "the job's id, chosen by the client: a second submit with it returns the first job (200) instead of making one"],
                    "recipe": ["description": "a recipe object, or the name of a shipped recipe; its files must lie under the config's media_root",
                               "oneOf": [["type": "object"], ["type": "string"]]],
                    "server": ["type": "string", "description": "Janus WebSocket URL, instead of the recipe's; default: the config's server, when it names one"],
                    "room": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"],
                    "token": ["type": "string", "description": "Janus core token, instead of the recipe's"],
                    "pin": ["type": "string", "description": "room pin, instead of the recipe's"],
                    "create": ["type": "boolean", "description": "true: create the room if it is missing (false keeps the recipe's)"],
                    "display": ["type": "string", "minLength": 1, "maxLength": 64, "description": "at most 64 characters and 256 bytes"],
                    "duration": ["type": "number", "exclusiveMinimum": 0, "maximum": 604_800],
                ],
            ],
        ]
    }
}
