/// Text made safe to put in HTML and SVG, as element content or a quoted attribute value:
/// display names and file names come from the room and the disk, so any of them may be markup.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            // Control characters are not allowed in XML (the SVG) and mean nothing on a page.
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Milliseconds as seconds with one decimal: `12.3 s`.
    static func seconds(_ ms: Int64) -> String {
        let tenths = ms / 100
        return "\(tenths / 10).\(abs(tenths % 10)) s"
    }

    /// A timeline position as `m:ss` (or `h:mm:ss` past an hour), for the axis.
    static func clock(_ ms: Int64) -> String {
        let total = max(0, ms) / 1000
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let padded = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(padded(minutes)):\(padded(seconds))" : "\(minutes):\(padded(seconds))"
    }
}
