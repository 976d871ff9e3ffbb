import CSndFile
import Glibc
import Synchronization

/// Reads a sound file (WAV, RF64, FLAC, Ogg Vorbis or Ogg Opus; whatever libsndfile knows) as
/// interleaved Int16 or Float samples. Bots use it to play files; tests use it to check recordings.
///
/// A file libsndfile cannot make sense of (garbage, a header cut short, an empty file) fails to
/// open with a ``SoundFileError`` carrying libsndfile's message; nothing traps.
public final class SoundFileReader: @unchecked Sendable {
    // @unchecked Sendable: the SNDFILE handle `file` and `descriptor` are only touched inside
    // `lock.withLock` (or in init, before the reader is shared).

    public let path: String
    public let info: SoundFile.Info
    private let lock = Mutex(())
    private var file: OpaquePointer?
    /// Ours, not libsndfile's (opened with close_desc false): closed after sf_close.
    private var descriptor: Int32

    public init(path: String) throws(SoundFileError) {
        // A regular file only: a FIFO or a device would block or never end (MediaFile).
        let descriptor: Int32
        do {
            descriptor = try MediaFile.openForReading(path)
        } catch {
            let reason = switch error {
            case .notRegularFile(_, let kind): "it is \(kind), not a regular file"
            case .cannotOpen(_, let reason): reason
            }
            throw .library(operation: "open", path: path, code: Int32(SF_ERR_SYSTEM), message: reason)
        }
        var info = SF_INFO()
        guard let file = sf_open_fd(descriptor, Int32(SFM_READ), &info, 0) else {
            let (code, message) = SoundFile.lastError(nil)
            Glibc.close(descriptor)
            throw .library(operation: "open", path: path, code: code, message: message)
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            Glibc.close(descriptor)
            throw .library(operation: "open", path: path, code: Int32(SF_ERR_MALFORMED_FILE),
                           message: "header has \(info.channels) channels at \(info.samplerate) Hz")
        }
        self.path = path
        self.info = SoundFile.Info(info)
        self.file = file
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Reads up to `maxFrames` frames as interleaved Int16; an empty result means end of file.
    public func read(maxFrames: Int) throws(SoundFileError) -> [Int16] {
        try read(maxFrames: maxFrames, zero: Int16(0), "read") { file, pointer, frames in
            sf_readf_short(file, pointer, frames)
        }
    }

    /// Reads up to `maxFrames` frames as interleaved Float in -1 ... 1; empty means end of file.
    public func readFloat(maxFrames: Int) throws(SoundFileError) -> [Float] {
        try read(maxFrames: maxFrames, zero: Float(0), "read float") { file, pointer, frames in
            sf_readf_float(file, pointer, frames)
        }
    }

    /// Reads everything from the current position to the end as Int16.
    public func readAll() throws(SoundFileError) -> [Int16] {
        var samples: [Int16] = []
        while true {
            let chunk = try read(maxFrames: 48_000)
            if chunk.isEmpty { return samples }
            samples.append(contentsOf: chunk)
        }
    }

    /// Reads everything from the current position to the end as Float.
    public func readAllFloat() throws(SoundFileError) -> [Float] {
        var samples: [Float] = []
        while true {
            let chunk = try readFloat(maxFrames: 48_000)
            if chunk.isEmpty { return samples }
            samples.append(contentsOf: chunk)
        }
    }

    /// Moves to `frame` (0 is the start).
    public func seek(toFrame frame: Int64) throws(SoundFileError) {
        try lock.withLock { _ throws(SoundFileError) in
            guard let file else { throw .closed(path: path) }
            if sf_seek(file, frame, SEEK_SET) < 0 {
                let (code, message) = SoundFile.lastError(file)
                throw .library(operation: "seek", path: path, code: code, message: message)
            }
        }
    }

    /// Releases the file. Idempotent.
    public func close() {
        lock.withLock { _ in
            if let open = file {
                sf_close(open)
                file = nil
                Glibc.close(descriptor)
                descriptor = -1
            }
        }
    }

    private func read<Sample>(
        maxFrames: Int, zero: Sample, _ operation: String,
        _ readFrames: (OpaquePointer, UnsafeMutablePointer<Sample>, sf_count_t) -> sf_count_t
    ) throws(SoundFileError) -> [Sample] {
        guard maxFrames > 0 else { throw .invalidArgument("maxFrames must be > 0") }
        let channels = info.channels
        var samples = [Sample](repeating: zero, count: maxFrames * channels)
        let outcome = lock.withLock { _ -> (frames: sf_count_t, code: Int32, message: String)? in
            guard let file else { return nil }
            let frames = samples.withUnsafeMutableBufferPointer { buffer in
                // maxFrames > 0, so the buffer is non-empty.
                readFrames(file, buffer.baseAddress!, sf_count_t(maxFrames))
            }
            let (code, message) = SoundFile.lastError(file)
            return (frames, code, message)
        }
        guard let outcome else { throw .closed(path: path) }
        if outcome.frames <= 0, outcome.code != Int32(SF_ERR_NO_ERROR) {
            throw .library(operation: operation, path: path, code: outcome.code, message: outcome.message)
        }
        samples.removeLast(samples.count - Int(max(0, outcome.frames)) * channels)
        return samples
    }
}
