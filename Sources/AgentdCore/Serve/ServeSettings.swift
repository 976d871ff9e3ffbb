import AgentCore

/// What the daemon's jobs take from the config (and flags), resolved once at start.
package struct ServeSettings: Sendable {
    package var outputRoot: String
    package var maxJobs: Int
    /// The Janus URL for requests that name none.
    package var defaultServer: String?
    /// The ICE settings every job's join takes: the allow-list's addresses, the STUN and TURN
    /// servers with their credentials, the policy (flags, environment, config).
    package var ice: RoomJoinPatch
    /// Where API bots may read files (a real path); nil: they play no files.
    package var mediaRoot: String? = nil

    package init(outputRoot: String, maxJobs: Int, defaultServer: String? = nil, ice: RoomJoinPatch, mediaRoot: String? = nil) {
        self.outputRoot = outputRoot
        self.maxJobs = maxJobs
        self.defaultServer = defaultServer
        self.ice = ice
        self.mediaRoot = mediaRoot
    }
}
