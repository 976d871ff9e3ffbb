import Foundation

/// A recording in a directory that may hold one already: the directory made ready at the start
/// (and the earlier run a continuation reads), and a continued run that never got going (the
/// room refused the join, or could not be reached) undone, so a worker retrying a reclaimed job
/// does not pile up empty parts and `continued` gaps.
extension RoomRecorder {
    /// Makes `directory` ready: probed for writing and, `continuing`, the recording in it read.
    /// A directory that cannot be continued is refused before anything is written to it, the
    /// probe included.
    ///
    /// One recorder per directory is the caller's to ensure: a worker holds the job's lease and
    /// is fenced when another takes it over (a kernel lock would keep a frozen or cut-off holder's
    /// directory from the takeover the queue decided on); two `agentd record --continue` of one
    /// directory at once are a mistake the CLI does not catch.
    static func claim(_ directory: RecordingDirectory, room: String, startingAt start: Date,
                      continuing: Bool) throws(RoomRecorderError) -> RecordingContinuation? {
        let continuation: RecordingContinuation?
        do throws(RecordingContinuationError) {
            continuation = continuing ? try RecordingContinuation.load(directory: directory, room: room, startingAt: start) : nil
        } catch {
            throw .continuation(error)
        }
        do {
            try directory.checkWritable()
        } catch {
            throw .directory(error.description)
        }
        return continuation
    }

    /// Ends a recording whose join failed. Files are finished as ``stop(endedAt:stoppedBy:)``
    /// finishes them; then, for a continued recording (``continuation``), every file this run
    /// made is removed and the earlier manifest.json put back byte for byte. A new recording is
    /// only stopped: what it leaves is its caller's to clean up (it made the directory).
    @discardableResult
    public func abandon(endedAt: Date = Date()) async -> RecordingManifest {
        accepting.store(false, ordering: .releasing)
        return await withCheckedContinuation { result in
            queue.async { [self] in
                let manifest = finish(endedAt: endedAt, stoppedBy: nil)
                if let continuation { undoRun(continuation) }
                result.resume(returning: manifest)
            }
        }
    }

    private func undoRun(_ continuation: RecordingContinuation) {
        dispatchPrecondition(condition: .onQueue(queue))
        for name in Set(fileNames) { unlink(directory.filePath(name)) }
        do {
            try AtomicFile.replace(manifestWriter.path, with: continuation.earlierBytes)
        } catch {
            noteOutputError(.manifest("putting the earlier manifest back: \(error)"))
        }
    }
}
