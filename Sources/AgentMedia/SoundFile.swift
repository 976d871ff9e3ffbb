import CSndFile

/// Shared vocabulary of ``SoundFileWriter`` and ``SoundFileReader`` (both over libsndfile).
public enum SoundFile {
    /// The container a file uses (libsndfile's "major format").
    public enum Container: Sendable, Equatable {
        case wav
        case rf64
        case flac
        case ogg
        case other(Int32)

        init(libsndfileFormat format: Int32) {
            switch format & Int32(SF_FORMAT_TYPEMASK) {
            case Int32(SF_FORMAT_WAV): self = .wav
            case Int32(SF_FORMAT_RF64): self = .rf64
            case Int32(SF_FORMAT_FLAC): self = .flac
            case Int32(SF_FORMAT_OGG): self = .ogg
            case let major: self = .other(major)
            }
        }
    }

    /// How samples are stored inside the container (libsndfile's "subtype").
    public enum Encoding: Sendable, Equatable {
        case pcm16
        case pcm24
        case float32
        case vorbis
        case opus
        case other(Int32)

        init(libsndfileFormat format: Int32) {
            switch format & Int32(SF_FORMAT_SUBMASK) {
            case Int32(SF_FORMAT_PCM_16): self = .pcm16
            case Int32(SF_FORMAT_PCM_24): self = .pcm24
            case Int32(SF_FORMAT_FLOAT): self = .float32
            case Int32(SF_FORMAT_VORBIS): self = .vorbis
            case Int32(SF_FORMAT_OPUS): self = .opus
            case let minor: self = .other(minor)
            }
        }
    }

    /// What a file holds, as read from its header.
    public struct Info: Sendable, Equatable {
        public var container: Container
        public var encoding: Encoding
        public var sampleRate: Int
        public var channels: Int
        /// Frames (one sample per channel) in the file.
        public var frames: Int64

        public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

        init(_ info: SF_INFO) {
            container = Container(libsndfileFormat: info.format)
            encoding = Encoding(libsndfileFormat: info.format)
            sampleRate = Int(info.samplerate)
            channels = Int(info.channels)
            frames = info.frames
        }
    }

    /// libsndfile's text for the last error on `file` (or on the last failed open when nil).
    /// The nil case reads a process-wide variable, so two opens failing at the same instant on
    /// different threads may swap messages; the error is still typed and nothing traps.
    static func lastError(_ file: OpaquePointer?) -> (code: Int32, message: String) {
        let code = sf_error(file)
        let message = sf_strerror(file).map { String(cString: $0) } ?? "unknown error"
        return (code, message)
    }
}
