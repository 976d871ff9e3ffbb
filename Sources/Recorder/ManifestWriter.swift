import Foundation

/// Writes manifest.json so a reader never sees half of one: the JSON goes to a temporary file in
/// the same directory, is fsynced, then renamed over manifest.json (rename(2) within one file
/// system is atomic), and the directory is fsynced so the rename survives a power cut.
///
/// The recording refreshes the manifest while it runs (at least every 5 s, ARCHITECTURE.md) so a
/// killed recorder leaves a current one. The caller owns the clock: it calls
/// ``refreshIfDue(now:_:)`` often (every second is plenty) and the writer writes when
/// ``refreshInterval`` has passed since the last write.
///
/// A full disk does not keep the last manifest from being written: the writer holds a
/// ``SpaceReserve`` and gives it back when a write fails, then tries once more.
///
/// Not thread-safe: one thread (the recorder's control loop) owns it.
public final class ManifestWriter {
    public static let fileName = "manifest.json"

    public let directory: String
    public let path: String
    public let refreshInterval: Duration
    /// Manifests written.
    public private(set) var writes = 0
    /// Manifests a closed gate kept from the disk.
    public private(set) var withheld = 0
    private var lastWrite: ContinuousClock.Instant?
    private var reserve: SpaceReserve?
    private let gate: (@Sendable () -> Bool)?

    /// - Parameter gate: asked before every write; a false answer skips it (a distributed job's
    ///   worker that lost its lease: the directory is another worker's now).
    public init(directory: String, refreshInterval: Duration = .seconds(2), gate: (@Sendable () -> Bool)? = nil) {
        self.directory = directory
        path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.refreshInterval = refreshInterval
        self.gate = gate
    }

    /// Whether the gate lets a write through (counting the ones it keeps back).
    private func mayWrite() -> Bool {
        guard let gate, !gate() else { return true }
        withheld += 1
        return false
    }

    /// Whether disk space is still held back for the last manifest.
    public var holdsReserve: Bool { reserve?.isHeld ?? false }

    /// Writes `manifest` now and restarts the refresh interval from `now`.
    public func write(_ manifest: RecordingManifest, now: ContinuousClock.Instant = .now) throws(SinkError) {
        guard mayWrite() else { return }
        try replaceAtomically(with: encoded(manifest))
        // The first manifest written made the directory; the reserve goes beside it.
        if reserve == nil { reserve = SpaceReserve(directory: directory) }
        lastWrite = now
        writes += 1
    }

    /// Writes the recording's last manifest. When that fails (most likely a full disk) it gives
    /// back the space held for this moment and tries once more. The reserve is gone afterwards,
    /// whatever happened; refreshes never touch it, so it is there for this write.
    public func writeFinal(_ manifest: RecordingManifest, now: ContinuousClock.Instant = .now) throws(SinkError) {
        defer { reserve?.release() }
        guard mayWrite() else { return }
        let bytes = try encoded(manifest)
        do {
            try replaceAtomically(with: bytes)
        } catch {
            guard reserve?.release() == true else { throw error }
            try replaceAtomically(with: bytes)
        }
        lastWrite = now
        writes += 1
    }

    private func encoded(_ manifest: RecordingManifest) throws(SinkError) -> [UInt8] {
        do {
            return [UInt8](try manifest.encodedJSON() + Data("\n".utf8))
        } catch {
            throw SinkError(operation: "encode", path: path, reason: "\(error)")
        }
    }

    /// Writes the manifest `make` builds when the refresh interval has passed since the last write
    /// (or nothing was written yet). Returns whether it wrote.
    @discardableResult
    public func refreshIfDue(now: ContinuousClock.Instant, _ make: () -> RecordingManifest) throws(SinkError) -> Bool {
        if let lastWrite, now - lastWrite < refreshInterval { return false }
        try write(make(), now: now)
        return true
    }

    private func replaceAtomically(with bytes: [UInt8]) throws(SinkError) {
        try AtomicFile.replace(path, with: bytes)
    }
}
