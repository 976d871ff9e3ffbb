import Agent
import Foundation

/// Reads a manifest.json back as hostile input: a recording directory handed to `--continue`
/// (or a worker's reclaimed job) may hold anything under that name.
///
/// - The file must be a regular file (no symbolic link, FIFO or device: opening one could hang
///   or read without end), read within ``maximumBytes``.
/// - The text is checked by ``JSONValue``'s bounded parser first (depth ``maximumDepth``, one
///   linear pass), so `JSONDecoder` only ever sees a shallow, well-formed document.
/// - Every failure is a ``ManifestReadError``; reasons are cut to one short line.
public enum RecordingManifestReader {
    /// 16 MiB: a manifest is about 1 KB per participant and 300 bytes per file part.
    public static let maximumBytes = 16 << 20
    /// A manifest nests 8 deep (participants, files, tracks, mappings); room for newer keys.
    public static let maximumDepth = 32

    /// manifest.json in `directory`, with the bytes it was read from.
    public static func read(directory: String) throws(ManifestReadError) -> (manifest: RecordingManifest, bytes: [UInt8]) {
        let bytes = try readFile((directory as NSString).appendingPathComponent(ManifestWriter.fileName))
        return (try parse(bytes), bytes)
    }

    /// A manifest from its bytes.
    public static func parse(_ bytes: [UInt8]) throws(ManifestReadError) -> RecordingManifest {
        guard bytes.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes, maxDepth: maximumDepth, maxBytes: maximumBytes)
        } catch {
            throw .notJSON(reason: error.description)
        }
        guard value.objectValue != nil else { throw .badManifest(reason: "the text is not a JSON object") }
        // A version other than ours is named as such, even when the rest would not decode.
        if let version = value["version"]?.integerValue, version != Int64(RecordingManifest.currentVersion) {
            throw .unsupportedVersion(Int(clamping: version))
        }
        let manifest: RecordingManifest
        do {
            manifest = try RecordingManifest.decode(Data(bytes))
        } catch {
            throw .badManifest(reason: oneLine(error))
        }
        guard manifest.version == RecordingManifest.currentVersion else { throw .unsupportedVersion(manifest.version) }
        return manifest
    }

    /// The file's bytes: a regular file, opened without following a link and without blocking.
    private static func readFile(_ path: String) throws(ManifestReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw .missing
            case ELOOP: throw .notARegularFile
            default: throw .unreadable(reason: String(cString: strerror(code)))
            }
        }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile }
        guard status.st_size <= off_t(maximumBytes) else { throw .tooLarge(limit: maximumBytes) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            // A file that grows while it is read is still bounded.
            guard bytes.count + count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
            bytes += chunk.prefix(count)
        }
    }

    /// An error's text on one line of at most 300 characters (a decoding error quotes the input).
    static func oneLine(_ error: any Error) -> String {
        let text = String(describing: error).unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
