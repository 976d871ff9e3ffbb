import Foundation

/// manifest.json while recording: built from the participants' entries, the room files and the
/// reconnect gaps, refreshed from the writer queue's timer; a continued recording's is the
/// earlier manifest with this run merged in (``RecordingManifest/continued(after:)``).
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
            var file = RecordingManifest.File(path: dataFileName, format: "data", startMs: originMs, bytes: fileBytes(dataFileName))
            file.error = dataError
            files.append(file)
        }
        result.files = files
        // How far the recording got: its end once final, else the furthest media or the clock.
        result.writtenMs = manifest.durationMs ?? max(furthestMs, originMs, Self.milliseconds(from: startedAt, to: Date()))
        return continuation?.merged(result) ?? result
    }

    /// `date` in ms after `start`, held within the timeline's range.
    static func milliseconds(from start: Date, to date: Date) -> Int64 {
        let ms = (date.timeIntervalSince(start) * 1000).rounded()
        let limit = Double(TimelineWAVWriter.validPositions.upperBound)
        return ms.isFinite ? Int64(min(max(ms, -limit), limit)) : 0
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
        guard let mixer else { return [(RecordingSegments.partPath("mix.wav", number: partNumbers.first(for: "mix.wav")), originMs * 48)] }
        return mixer.outputParts.map { (($0.path as NSString).lastPathComponent, $0.startSample) }
    }

    /// The files this run writes (a continued recording's earlier files are not among them).
    var fileNames: [String] {
        recordings.flatMap(\.filePaths) + (mixer != nil && formats.contains(.mix) ? mixParts.map(\.name) : [])
            + (dataLog != nil ? [dataFileName] : []) + (compositor?.fileNames ?? []) + (transcriber?.fileNames ?? [])
    }

    func publishBytes() {
        let total = fileNames.compactMap(fileBytes).reduce(0, +)
        published.withLock { $0.bytesWritten = total }
    }
}
