// agentd-samples: writes the media samples that file players and their tests use, made with our
// own encoders (libvpx and libopus through Agent) and writers (BotKit's IVF, Recorder's WebM and
// Ogg/Opus). Nothing is downloaded. scripts/make-samples runs it for samples/.
import Foundation

let usage = """
    usage: agentd-samples DIR [NAME...]
    Writes into DIR (created if missing) each NAME, or all of them:
      pattern-vp8.ivf  5 s 320x240 30 fps moving test pattern, VP8 in IVF
      pattern.webm     the same pictures + 440 Hz tone (Opus) in WebM, with a sync mark every
                       second from 0.5 s: a white frame and a 1 kHz beep onset at the same instant
      tone-440.opus    5 s 440 Hz tone at half scale, Ogg/Opus, 20 ms packets
    Each file is written under a temporary name and renamed when complete.
    Exit status: 0 ok, 2 usage, 1 a sample could not be written.
    """

func run(_ arguments: [String]) throws {
    guard let directory = arguments.first, !directory.hasPrefix("-") else {
        if arguments.first == "-h" || arguments.first == "--help" {
            print(usage)
            exit(0)
        }
        throw SamplesError.usage(usage)
    }
    var names: [SampleName] = []
    for argument in arguments.dropFirst() {
        guard let name = SampleName(rawValue: argument) else {
            throw SamplesError.usage("agentd-samples: unknown sample '\(argument)' (known: \(SampleName.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if !names.contains(name) { names.append(name) }
    }
    if names.isEmpty { names = SampleName.allCases }
    let url = URL(fileURLWithPath: directory)
    do {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
        throw SamplesError.failed(sample: directory, reason: "cannot create the directory: \(error.localizedDescription)")
    }
    for (path, bytes) in try SampleWriter(directory: url).write(names) {
        print("agentd-samples: wrote \(path) (\(bytes) bytes)")
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch SamplesError.usage(let message) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("agentd-samples: error: \(error)\n".utf8))
    exit(1)
}
