/// What the daemon's jobs take from the config (and flags), resolved once at start.
package struct ServeSettings: Sendable {
    package var outputRoot: String
    package var maxJobs: Int
    /// The Janus URL for requests that name none.
    package var defaultServer: String?
    /// Addresses for ICE, resolved from the allow-list.
    package var iceAddresses: [String]
    /// Where API bots may read files (a real path); nil: they play no files.
    package var mediaRoot: String? = nil

    package init(outputRoot: String, maxJobs: Int, defaultServer: String? = nil, iceAddresses: [String], mediaRoot: String? = nil) {
        self.outputRoot = outputRoot
        self.maxJobs = maxJobs
        self.defaultServer = defaultServer
        self.iceAddresses = iceAddresses
        self.mediaRoot = mediaRoot
    }
}
