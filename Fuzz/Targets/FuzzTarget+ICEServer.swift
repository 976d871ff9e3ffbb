import Agent

extension FuzzTarget {
    /// `--ice-server` URIs (RFC 7065 turn:, RFC 7064 stun:), from the command line, the
    /// environment and the daemon's config: a parsed server must read back equal from its
    /// canonical URI, and a URI with userinfo must be refused as such (so no piece of it, which
    /// could be a password, reaches an error text).
    public static let iceServer = FuzzTarget(name: "ice-server", summary: "ICEServer(parsing:), ICEServer.list(parsing:), round trips", maxInputLength: 1024) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        do throws(ICEServerError) {
            let server = try ICEServer(parsing: text)
            let again = try? ICEServer(parsing: server.description)
            FuzzCheck.expect(again == server, "\(server) reads back as \(String(describing: again))")
        } catch {
            if text.contains("@"), !text.isEmpty, text.utf8.count <= ICEServer.maximumLength {
                FuzzCheck.expect(error == .userinfo, "a URI with '@' was refused as \(error)")
            }
            FuzzCheck.expect("\(error)".utf8.count <= 200, "an error text of \("\(error)".utf8.count) bytes")
        }
        if let servers = try? ICEServer.list(parsing: text) {
            let again = try? ICEServer.list(parsing: servers.map(\.description).joined(separator: ","))
            FuzzCheck.expect(again == servers, "the list \(servers) reads back as \(String(describing: again))")
        }
    }
}
