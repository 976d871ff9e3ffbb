import AgentCore

/// The comment header, the second packet of an Ogg Opus stream (RFC 7845 §5.2). Lengths are LE32:
///
///     +-------------------+-----------------+---------------+-------------------+-------------+
///     | "OpusTags" (8 B)  | vendor length   | vendor string | comment count     | comments... |
///     +-------------------+-----------------+---------------+-------------------+-------------+
///
/// Each comment is a length and a UTF-8 "KEY=value" string (Vorbis comment style).
public struct OpusTags: Sendable, Equatable {
    public var vendor: String
    public var comments: [String]

    public init(parsing packet: [UInt8]) throws(OggOpusReaderError) {
        (vendor, comments) = try ByteReader.read(packet) { (reader: inout ByteReader) throws(OggOpusReaderError) in
            guard let magic = try? reader.readBytes(8), magic.elementsEqual("OpusTags".utf8) else {
                throw .badTags("no OpusTags magic")
            }
            let vendor = try Self.string(&reader)
            let count = try Self.length(&reader)
            // Each comment needs at least its 4-byte length, which bounds a garbage count.
            guard count <= reader.remaining / 4 else { throw .badTags("\(count) comments cannot fit") }
            var comments: [String] = []
            for _ in 0..<count { comments.append(try Self.string(&reader)) }
            return (vendor, comments)
        }
    }

    private static func length(_ reader: inout ByteReader) throws(OggOpusReaderError) -> Int {
        do throws(ByteRangeError) {
            return Int(try reader.readLittleEndian(UInt32.self))
        } catch {
            throw .badTags("length at \(error.offset) truncated")
        }
    }

    private static func string(_ reader: inout ByteReader) throws(OggOpusReaderError) -> String {
        let count = try length(&reader)
        do throws(ByteRangeError) {
            return String(decoding: try reader.readBytes(count), as: UTF8.self)
        } catch {
            throw .badTags("string at \(error.offset) runs past the end")
        }
    }
}
