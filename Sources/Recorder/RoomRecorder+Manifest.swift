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
            var file = RecordingManifest.File(
                path: "mix.wav", format: "mix", startMs: 0,
                tracks: [.init(kind: .audio, codec: "pcm_s16le", channels: 1, sampleRate: 48_000)],
                bytes: fileBytes("mix.wav"), durationMs: (mixer?.emitted ?? 0) / 48)
            file.error = mixError
            files.append(file)
        }
        if let compositor { files.append(compositor.manifestFile(bytes: fileBytes(RoomCompositor.fileName))) }
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
            let written = force ? true : try manifestWriter.refreshIfDue(now: .now) { buildManifest() }
            if force { try manifestWriter.write(buildManifest()) }
            if written { publishBytes() }
        } catch {
            noteOutputError(.manifest(error.description))
        }
    }

    func publishBytes() {
        let paths = recordings.flatMap(\.filePaths) + (mixer != nil && formats.contains(.mix) ? ["mix.wav"] : [])
            + (dataLog != nil ? ["data.jsonl"] : []) + (compositor != nil ? [RoomCompositor.fileName] : [])
        let total = paths.compactMap(fileBytes).reduce(0, +)
        published.withLock { $0.bytesWritten = total }
    }
}
