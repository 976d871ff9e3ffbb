/// A session description (RFC 8866) as the offer/answer exchange uses it (RFC 3264, RFC 8829):
/// session-level lines and attributes, then media sections.
///
///     v=0
///     o=- 4611731400430051336 2 IN IP4 127.0.0.1
///     s=-
///     t=0 0
///     a=group:BUNDLE 0 1
///     m=audio 9 UDP/TLS/RTP/SAVPF 111
///     …
///
/// Parsing keeps every line so a description can be written back; lines we do not understand
/// are kept, not rejected, because servers add their own.
public struct SessionDescription: Equatable, Sendable, SDPAttributeHolder {
    /// Session-level non-attribute lines after `v=`, in order (o=, s=, t=, c=, …).
    public var lines: [SDPLine]
    public var attributes: [SDPAttribute]
    public var media: [MediaDescription]

    public init(lines: [SDPLine], attributes: [SDPAttribute] = [], media: [MediaDescription] = []) {
        self.lines = lines
        self.attributes = attributes
        self.media = media
    }

    public static func parse(_ text: String) throws(SDPError) -> SessionDescription {
        var sawVersion = false
        var description = SessionDescription(lines: [])
        var current: MediaDescription?
        var number = 0
        // A bare CR ends a line too: kept inside a value, it would end the line in the text we
        // write back (an answer copies fmtp values from the offer), and other parsers would
        // read what follows it as a line of its own.
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            if line.isEmpty { continue }
            guard line.count >= 2, line[line.index(after: line.startIndex)] == "=", let type = line.first else {
                throw .malformedLine(number: number, line: String(line.prefix(80)))
            }
            let value = line.dropFirst(2)
            switch type {
            case "v":
                guard value == "0" else { throw .malformedLine(number: number, line: String(line.prefix(80))) }
                sawVersion = true
            case "m":
                if let finished = current { description.media.append(finished) }
                current = try parseMediaLine(value, number: number)
            case "a":
                let attribute = SDPAttribute(line: value)
                if current != nil { current?.attributes.append(attribute) } else { description.attributes.append(attribute) }
            default:
                let kept = SDPLine(type: type, value: String(value))
                if current != nil { current?.lines.append(kept) } else { description.lines.append(kept) }
            }
        }
        if let finished = current { description.media.append(finished) }
        guard number > 0 else { throw .empty }
        guard sawVersion else { throw .missingVersion }
        return description
    }

    private static func parseMediaLine(_ value: Substring, number: Int) throws(SDPError) -> MediaDescription {
        let parts = value.split(separator: " ")
        // The port may carry a count ("9/2"); only the port matters here. It is the text before
        // the first "/": splitting "/" at "/" gives no pieces at all (`m=audio / …` trapped).
        guard parts.count >= 3, let port = SDPNumber.decimal(parts[1].prefix { $0 != "/" }), port <= 65535 else {
            throw .badMediaLine(number: number, line: "m=" + String(value.prefix(80)))
        }
        return MediaDescription(kind: String(parts[0]), port: port, proto: String(parts[2]), formats: parts.dropFirst(3).map(String.init))
    }

    /// The description as text with CRLF line ends (RFC 8866 §5).
    public var text: String {
        var out = ["v=0"]
        out += lines.map { "\($0.type)=\($0.value)" }
        out += attributes.map(\.line)
        for section in media {
            out.append("m=\(([section.kind, String(section.port), section.proto] + section.formats).joined(separator: " "))")
            out += section.lines.map { "\($0.type)=\($0.value)" }
            out += section.attributes.map(\.line)
        }
        return out.joined(separator: "\r\n") + "\r\n"
    }

    /// `a=group:BUNDLE` mids.
    public var bundleGroup: [String] {
        attributes(named: "group").first { $0.hasPrefix("BUNDLE") }.map { $0.split(separator: " ").dropFirst().map(String.init) } ?? []
    }

    /// An attribute from the media section, falling back to the session level (ICE and DTLS
    /// attributes may sit at either, RFC 8839 §5 and RFC 8842 §5).
    public func attribute(_ name: String, media index: Int) -> String? {
        if media.indices.contains(index), let value = media[index].attribute(name) { return value }
        return attribute(name)
    }
}
