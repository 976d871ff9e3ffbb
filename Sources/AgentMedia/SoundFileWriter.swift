import CSndFile
import Synchronization

/// Writes PCM to a sound file, WAV 16-bit by default, as recordings need.
///
/// A recording may be cut short by a crash or a kill, so a WAV writer keeps its header valid
/// while the file grows (libsndfile's `SFC_SET_UPDATE_HEADER_AUTO` rewrites the RIFF and data
/// chunk sizes after every write). Whatever was written before the kill stays readable.
///
/// PCM is interleaved. ``close()`` is idempotent and reports the first error seen.
public final class SoundFileWriter: @unchecked Sendable {
    // @unchecked Sendable: the SNDFILE handle and the counters (`file`, `written`, `firstError`)
    // are only touched inside `lock.withLock`.

    /// What to write. FLAC and Ogg Vorbis exist mostly to make fixtures for readers; recordings
    /// use WAV, whose header survives a crash.
    public enum Format: Sendable, Equatable {
        /// RIFF WAVE, 16-bit PCM, header updated on every write.
        case wav
        /// FLAC, 16-bit, lossless.
        case flac
        /// Ogg Vorbis at a quality between 0 (smallest) and 1 (best).
        case oggVorbis(quality: Double)

        var libsndfileFormat: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .oggVorbis: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            }
        }
    }

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    public let format: Format
    private let lock = Mutex(())
    private var file: OpaquePointer?
    private var written: Int64 = 0
    private var firstError: SoundFileError?

    public init(path: String, sampleRate: Int = 48_000, channels: Int = 1,
                format: Format = .wav) throws(SoundFileError) {
        guard (1...8).contains(channels) else { throw .invalidArgument("channels must be 1...8, got \(channels)") }
        guard (1000...768_000).contains(sampleRate) else {
            throw .invalidArgument("sample rate \(sampleRate) out of range")
        }
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format.libsndfileFormat
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            let (code, message) = SoundFile.lastError(nil)
            throw .library(operation: "open for writing", path: path, code: code, message: message)
        }
        switch format {
        case .wav:
            // Returns the new setting, not a status: nothing to check.
            _ = sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, 1)
        case .oggVorbis(let quality):
            var level = min(1, max(0, quality))
            _ = sf_command(file, Int32(SFC_SET_VBR_ENCODING_QUALITY), &level, Int32(MemoryLayout<Double>.size))
        case .flac:
            break
        }
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        self.format = format
        self.file = file
    }

    /// Opens a WAV this type wrote and closed, to cut it shorter with ``truncate(toFrames:)``
    /// (a recording's last part ends inside the part before). Read-write; writes would append.
    public init(reopeningForTruncation path: String) throws(SoundFileError) {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_RDWR), &info) else {
            let (code, message) = SoundFile.lastError(nil)
            throw .library(operation: "open for truncation", path: path, code: code, message: message)
        }
        _ = sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, 1)
        self.path = path
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        format = .wav
        written = Int64(info.frames)
        self.file = file
    }

    deinit {
        try? close()
    }

    /// Frames (one sample per channel) written so far.
    public var framesWritten: Int64 { lock.withLock { _ in written } }

    /// Appends interleaved samples; the count must be a whole number of frames.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(SoundFileError) {
        guard samples.count % channels == 0 else {
            throw .invalidArgument("\(samples.count) samples is not a whole number of \(channels)-channel frames")
        }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        try lock.withLock { _ throws(SoundFileError) in
            guard let file else { throw .closed(path: path) }
            let count = sf_write_short(file, base, sf_count_t(samples.count))
            written += count / sf_count_t(channels)
            guard count == samples.count else {
                let (code, message) = SoundFile.lastError(file)
                let error = SoundFileError.library(operation: "write", path: path, code: code,
                                                   message: "wrote \(count) of \(samples.count) samples: \(message)")
                if firstError == nil { firstError = error }
                throw error
            }
        }
    }

    /// Appends interleaved samples; the count must be a whole number of frames.
    public func write(_ samples: [Int16]) throws(SoundFileError) {
        let result = samples.withUnsafeBufferPointer { samples in
            Result { () throws(SoundFileError) in try write(samples) }
        }
        try result.get()
    }

    /// Appends `frames` frames of silence, e.g. to fill a gap in a recording.
    public func writeSilence(frames: Int) throws(SoundFileError) {
        guard frames >= 0 else { throw .invalidArgument("negative frame count \(frames)") }
        let chunkFrames = 4800
        let silence = [Int16](repeating: 0, count: chunkFrames * channels)
        var remaining = frames
        while remaining > 0 {
            let count = min(remaining, chunkFrames)
            let result = silence.withUnsafeBufferPointer { buffer in
                Result { () throws(SoundFileError) in
                    try write(UnsafeBufferPointer(rebasing: buffer[0..<(count * channels)]))
                }
            }
            try result.get()
            remaining -= count
        }
    }

    /// Cuts the file back to its first `frames` frames (libsndfile's SFC_FILE_TRUNCATE), e.g. so
    /// every WAV of a recording ends at the recording's last sample.
    public func truncate(toFrames frames: Int64) throws(SoundFileError) {
        guard frames >= 0 else { throw .invalidArgument("negative frame count \(frames)") }
        let failed = lock.withLock { _ -> Bool in
            guard let file else { return true }
            var count = sf_count_t(frames)
            return sf_command(file, Int32(SFC_FILE_TRUNCATE), &count, Int32(MemoryLayout<sf_count_t>.size)) != 0
        }
        if failed { throw .invalidArgument("cannot truncate \(path) to \(frames) frames") }
    }

    /// Forces written data to disk (fsync); the header is already current for WAV.
    public func sync() {
        lock.withLock { _ in
            if let file { sf_write_sync(file) }
        }
    }

    /// Finishes the file. Idempotent: later calls do nothing but report the first error again.
    public func close() throws(SoundFileError) {
        let error = lock.withLock { _ -> SoundFileError? in
            if let open = file {
                file = nil
                let status = sf_close(open)
                if status != 0, firstError == nil {
                    let message = sf_error_number(status).map { String(cString: $0) } ?? "unknown error"
                    firstError = .library(operation: "close", path: path, code: status, message: message)
                }
            }
            return firstError
        }
        if let error { throw error }
    }
}
