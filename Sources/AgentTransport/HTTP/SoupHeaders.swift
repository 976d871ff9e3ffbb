import CSoup

/// libsoup's header lists as Swift dictionaries, for the server's requests and the client's
/// responses alike.
enum SoupHeaders {
    /// Header values by lowercased name; the last of repeated ones wins.
    static func dictionary(_ headers: OpaquePointer?) -> [String: String] {
        final class Collected { var values: [String: String] = [:] }
        let collected = Collected()
        guard let headers else { return [:] }
        withExtendedLifetime(collected) {
            soup_message_headers_foreach(
                headers,
                { name, value, data in
                    guard let name, let value, let data else { return }
                    Unmanaged<Collected>.fromOpaque(data).takeUnretainedValue().values[String(cString: name).lowercased()] = String(cString: value)
                }, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }
}
