import Foundation

/// manifest.json while recording: built from the participants' entries, the room files and the
/// reconnect gaps, refreshed from the writer queue's timer.
extension RoomRecorder {
    func fileBytes(_ name: String) -> Int64? {
        var status = stat()
        return stat(directory.filePath(name), &status) == 0 ? Int64(status.st_size) : nil
    }

    func buildManifest() -> RecordingManifest {
        var result = manifest
        result.eventsDropped = eventsDropped
        let connectionGaps = reconnects.ranges(openEndMs: furthestMs)
        result.participants = recordings.map { $0.manifestEntry(fileBytes: fileBytes, connectionGaps: connectionGaps) }
        result.gaps = reconnects.gaps
        result.error = connectionError ?? outputError?.description
        var files: [RecordingManifest.File] = []
        if formats.contains(.mix), mixer != nil || mixError != nil {
            let parts = mixParts
            for (index, part) in parts.enumerated() {
                let end = index + 1 < parts.count ? parts[index + 1].startSample : (mixer?.outputSamples ?? 0)
                var file = RecordingManifest.File(
                    path: part.name, format: "mix", startMs: part.startSample / 48,
                    tracks: [.init(kind: .audio, codec: "pcm_s16le", channels: 1, sampleRate: 48_000)],
                    bytes: fileBytes(part.name), durationMs: max(0, end - part.startSample) / 48)
                if index == parts.count - 1 { file.error = mixError }
                files.append(file)
            }
        }
        if let compositor { files += compositor.manifestFiles(bytes: fileBytes) }
        if let transcriber { files += transcriber.manifestFiles(bytes: fileBytes) }
        if dataLog != nil || dataError != nil {
            var file = RecordingManifest.File(path: "data.jsonl", format: "data", startMs: 0, bytes: fileBytes("data.jsonl"))
            file.error = dataError
            files.append(file)
        }
        result.files = files
        return result
    }

    func refreshManifest(force: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard finalManifest == nil else { return }
        publishCounts()
        do {
            if force {
                try manifestWriter.write(buildManifest())
            } else {
                _ = try manifestWriter.refreshIfDue(now: .now) { buildManifest() }
            }
            // Every tick, written or not: `--max-bytes` reads this about once a second.
            publishBytes()
        } catch {
            noteOutputError(.manifest(error.description))
        }
    }

    /// mix.wav and its parts; `mix.wav` alone when the mixer could not be made.
    private var mixParts: [(name: String, startSample: Int64)] {
        guard let mixer else { return [("mix.wav", 0)] }
        return mixer.outputParts.map { (($0.path as NSString).lastPathComponent, $0.startSample) }
    }

    func publishBytes() {
        let paths = recordings.flatMap(\.filePaths) + (mixer != nil && formats.contains(.mix) ? mixParts.map(\.name) : [])
            + (dataLog != nil ? ["data.jsonl"] : []) + (compositor?.fileNames ?? [])
            + (transcriber != nil ? [TranscriptLog.jsonLinesName, TranscriptLog.captionsName] : [])
        let total = paths.compactMap(fileBytes).reduce(0, +)
        published.withLock { $0.bytesWritten = total }
    }
}
