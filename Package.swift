// swift-tools-version:6.0
import PackageDescription

// One system-library target per C library from Debian. Each names its pkg-config module and the apt
// package that provides it, so `swift build` can tell a newcomer what to install.
let systemLibraries: [Target] = [
    .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
    .systemLibrary(name: "CVPX", pkgConfig: "vpx", providers: [.apt(["libvpx-dev"])]),
    .systemLibrary(name: "COpenH264", pkgConfig: "openh264", providers: [.apt(["libopenh264-dev"])]),
    .systemLibrary(name: "CSRTP", pkgConfig: "libsrtp2", providers: [.apt(["libsrtp2-dev"])]),
    .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
    .systemLibrary(name: "COgg", pkgConfig: "ogg", providers: [.apt(["libogg-dev"])]),
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CNice", pkgConfig: "nice", providers: [.apt(["libnice-dev"])]),
    .systemLibrary(name: "CUsrSCTP", pkgConfig: "usrsctp", providers: [.apt(["libusrsctp-dev"])]),
    .systemLibrary(name: "CSoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
    .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
    // libyuv has no .pc file: its module map links it by name.
    .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // speex_preprocess: noise suppression and AGC for the audio processors (issue 15).
    .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
]

let cLibraryNames = systemLibraries.map(\.name)

// pocketsphinx only for the Speech target: kept out of `systemLibraries`, whose every module
// CAgentShims (and so every binary) links.
let speechLibraries: [Target] = [
    .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]),
]

// hiredis only for the JobQueue target (issue 16): kept out of `systemLibraries` for the same reason.
let queueLibraries: [Target] = [
    .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),
]

let package = Package(
    name: "agentd",
    products: [
        .library(name: "Agent", targets: ["Agent"]),
        .library(name: "Recorder", targets: ["Recorder"]),
        .library(name: "BotKit", targets: ["BotKit"]),
        .library(name: "Speech", targets: ["Speech"]),
        .executable(name: "agentd", targets: ["agentd"]),
    ],
    targets: systemLibraries + speechLibraries + queueLibraries + [
        // static inline wrappers for the macros and variadic functions Swift cannot call.
        .target(
            name: "CAgentShims",
            dependencies: cLibraryNames.map { .target(name: $0) }
        ),
        // Our C++ shim over libwebm's incremental parser, exposing a C API (include/agent_webm_reader.h).
        .target(name: "CWebMParser", linkerSettings: [.linkedLibrary("webm")]),
        // The layers of the agent, each importing only those below it (issue 12; ModuleImportsTests
        // reads the sources to keep it so): the vocabulary, then wire formats, codecs and transports,
        // then the WebRTC session, then the platform adapters (Janus, WHIP), then the room API on top.
        // The values every layer shares; no C, no loop.
        .target(name: "AgentCore"),
        // RTP, RTCP, SDP, DCEP: bytes in, values out.
        .target(name: "AgentWire", dependencies: ["AgentCore"]),
        // Codecs, files and frames over the C media libraries.
        .target(
            name: "AgentMedia",
            dependencies: ["AgentCore", "COpus", "CVPX", "COpenH264", "COgg", "CSndFile", "CSampleRate", "CYUV", "CZlib", "CSpeexDSP", "CAgentShims"]
        ),
        // Event loops, ICE, DTLS, SRTP, SCTP, WebSocket and the HTTP server.
        .target(
            name: "AgentTransport",
            dependencies: ["AgentCore", "CNice", "COpenSSL", "CSRTP", "CUsrSCTP", "CSoup", "CAgentShims"]
        ),
        // PeerConnection, streams and the platform seam (RoomSession).
        .target(name: "AgentSession", dependencies: ["AgentCore", "AgentWire", "AgentMedia", "AgentTransport"]),
        // The Janus VideoRoom adapter behind RoomSession.
        .target(name: "AgentJanus", dependencies: ["AgentCore", "AgentWire", "AgentTransport", "AgentSession", "COpenSSL"]),
        // The WHIP adapter (RFC 9725) behind RoomSession: publishing over HTTP.
        .target(name: "AgentWHIP", dependencies: ["AgentCore", "AgentWire", "AgentTransport", "AgentSession"]),
        // The room API (AgentEngine, Channel); re-exports the layers so `import Agent` is enough.
        .target(
            name: "Agent",
            dependencies: ["AgentCore", "AgentWire", "AgentMedia", "AgentTransport", "AgentSession", "AgentJanus", "AgentWHIP"]
        ),
        .target(name: "Recorder", dependencies: ["Agent", "COgg", "Speech"]),
        // Speech recognition behind SpeechRecognizer (issue 15): pocketsphinx in process, and any
        // engine as a subprocess speaking JSON lines. Below the room API: it only takes PCM.
        .target(name: "Speech", dependencies: ["AgentCore", "CPocketSphinx"]),
        .target(name: "BotKit", dependencies: ["Agent", "CWebMParser"]),
        // The QA report of a recording directory (report.json, report.html): it reads what Recorder
        // wrote (the manifest, WAVs) and the WebMs with BotKit's reader, so it sits above both.
        .target(name: "RecordingReport", dependencies: ["Agent", "Recorder", "BotKit"]),
        // agentd's parsers of outside input, apart from its runtime so agentd-fuzz can drive them:
        // recipes, the API's routes, request admission and bodies, and the rules they share.
        .target(name: "AgentdCore", dependencies: ["AgentCore", "AgentTransport", "Recorder"]),
        // Distributed jobs (issue 16): a Redis client over hiredis and the job queue on Redis Streams.
        .target(name: "JobQueue", dependencies: ["AgentCore", "CHiredis"]),
        .executableTarget(name: "agentd", dependencies: ["Agent", "Recorder", "BotKit", "AgentdCore", "RecordingReport", "Speech", "JobQueue"]),
        // Benchmarks, built in release by scripts/bench; never part of `swift test`.
        // Counts heap allocations in agentd-bench (it interposes malloc: never a dependency of agentd).
        .target(name: "CAllocCounter"),
        .executableTarget(name: "agentd-bench", dependencies: ["Agent", "Recorder", "BotKit", "Speech", "JobQueue", "CAllocCounter"], path: "Sources/agentd-bench"),
        // Writes the media samples (scripts/make-samples) with our own encoders and writers.
        .executableTarget(name: "agentd-samples", dependencies: ["Agent", "Recorder", "BotKit"], path: "Sources/agentd-samples"),
        // Touches a LoopBound value off its loop on request: its release build proves the
        // confinement check is live in release (Tests/AgentTests/Transport/LoopConfinementTests).
        .executableTarget(name: "agentd-loopcheck", dependencies: ["Agent", "CNice"], path: "Sources/agentd-loopcheck"),
        // Fuzz targets for every parser of untrusted bytes (Fuzz/Targets), driven by libFuzzer in a
        // `-sanitize=fuzzer,address -D FUZZING` build of agentd-fuzz (scripts/fuzz); a normal build of
        // agentd-fuzz replays inputs, and FuzzTests replays the committed corpora in `swift test`.
        .target(name: "FuzzTargets", dependencies: ["Agent", "BotKit", "AgentdCore", "RecordingReport", "Speech", "JobQueue"], path: "Fuzz/Targets"),
        // Declares libFuzzer's LLVMFuzzerRunDriver for the fuzz build; unused otherwise.
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(name: "agentd-fuzz", dependencies: ["FuzzTargets", "CFuzzDriver"], path: "Fuzz/Driver"),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets"], path: "Fuzz/Tests"),
        // Helpers the test targets share: peer processes, the lab's env file, polling.
        .target(name: "TestSupport", dependencies: ["AgentTransport", "AgentMedia"], path: "Tests/TestSupport"),
        .testTarget(
            name: "AgentTests",
            dependencies: [
                "AgentCore", "AgentWire", "AgentMedia", "AgentTransport", "AgentSession", "AgentJanus", "AgentWHIP", "Agent",
                "CAgentShims", "TestSupport",
            ]
        ),
        // RecordingReport too: its end-to-end test reports on a directory RoomRecorder wrote from
        // the RoomEventScript this target has.
        .testTarget(name: "RecorderTests", dependencies: ["Recorder", "RecordingReport", "TestSupport"]),
        .testTarget(name: "RecordingReportTests", dependencies: ["RecordingReport", "Recorder", "BotKit", "TestSupport"]),
        .testTarget(name: "BotKitTests", dependencies: ["BotKit", "TestSupport"]),
        .testTarget(name: "AgentdCoreTests", dependencies: ["AgentdCore", "TestSupport"]),
        .testTarget(name: "agentdTests", dependencies: ["agentd", "AgentdCore", "Recorder", "BotKit", "RecordingReport", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "JobQueueTests", dependencies: ["JobQueue", "TestSupport"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "AgentMedia", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
