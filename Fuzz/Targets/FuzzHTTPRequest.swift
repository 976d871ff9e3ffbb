import Foundation

/// A request as libsoup hands it to the server: the request line's method and path (query cut
/// off), the headers by lowercased name (the last one wins), the declared Content-Length and
/// the bytes after the blank line. Read leniently: whatever libsoup would refuse still becomes
/// some request, so the fuzzer's mutations reach admission.
struct FuzzHTTPRequest {
    var method = "GET"
    var path = "/"
    var headers: [String: String] = [:]
    var contentLength = 0
    var body: [UInt8] = []

    init(_ bytes: [UInt8]) {
        let (headBytes, body) = Self.split(bytes)
        self.body = body
        var lines = headBytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
        }
        guard !lines.isEmpty else { return }
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        if let method = requestLine.first { self.method = String(method) }
        if requestLine.count > 1 {
            let target = requestLine[1]
            path = String(target.prefix { $0 != "?" && $0 != "#" })
            if path.isEmpty { path = "/" }
        }
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
        }
        if let declared = headers["content-length"], !declared.isEmpty, declared.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            contentLength = Int(declared) ?? Int.max
        }
    }

    /// The head (before the first blank line) and the body (after it).
    private static func split(_ bytes: [UInt8]) -> ([UInt8], [UInt8]) {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") && bytes[index + 1] == UInt8(ascii: "\n") {
                return (Array(bytes[..<index]), Array(bytes[(index + 2)...]))
            }
            if index + 3 < bytes.count, bytes[index] == UInt8(ascii: "\r"), bytes[index + 1] == UInt8(ascii: "\n"),
               bytes[index + 2] == UInt8(ascii: "\r"), bytes[index + 3] == UInt8(ascii: "\n") {
                return (Array(bytes[..<index]), Array(bytes[(index + 4)...]))
            }
            index += 1
        }
        return (bytes, [])
    }
}
