import Agent

/// The ICE options every command that joins a room takes: where candidates are gathered
/// (`--ice-allow`), the STUN and TURN servers with their credentials, and the transport policy.
/// Each has an environment variable, and the daemon a config key; the flag wins.
extension SharedOptions {
    static let iceServer = OptionSpec.value(
        "ice-server", "URL",
        "A TURN or STUN server for ICE: turn:IP[:PORT][?transport=udp|tcp] or stun:IP[:PORT] (RFC 7065, RFC 7064; "
            + "an IPv4 address, never a name; port 3478 by default; turns: is not supported). Comma-separated or repeated.",
        environment: "AGENTD_ICE_SERVER", repeatable: true)
    static let iceUsername = OptionSpec.value(
        "ice-username", "NAME", "The TURN servers' username (long-term credentials). Never logged.",
        environment: "AGENTD_ICE_USERNAME")
    static let iceCredential = OptionSpec.value(
        "ice-credential", "SECRET",
        "The TURN servers' password. Never logged or written anywhere; prefer the environment variable (a flag shows in ps).",
        environment: "AGENTD_ICE_CREDENTIAL")
    static let icePolicy = OptionSpec.value(
        "ice-policy", "POLICY",
        "all (default) or relay: send and receive media only through a TURN relay (no host candidate is offered or tried; "
            + "needs a turn: server). A TURN server that refuses the credentials or does not answer then fails the join, exit 4.",
        environment: "AGENTD_ICE_POLICY")

    /// Every ICE option, in the order the help shows them.
    static let ice: [OptionSpec] = [iceAllow, iceServer, iceUsername, iceCredential, icePolicy]

    /// The process's ICE settings from the command line (each already merged with its
    /// environment variable by the parser), as a patch every join takes.
    static func ice(_ arguments: ParsedArguments) throws -> RoomJoinPatch {
        try ice(
            allow: arguments.value("ice-allow"), servers: arguments.value("ice-server"), username: arguments.value("ice-username"),
            credential: arguments.value("ice-credential"), policy: arguments.value("ice-policy"))
    }

    /// The ICE settings from their texts (flags, environment, or the daemon's config). A bad
    /// setting is a usage error that names the option and never shows the username or credential.
    static func ice(allow: String?, servers: String?, username: String?, credential: String?, policy: String?) throws -> RoomJoinPatch {
        let addresses = try iceAddresses(allow)
        let parsedServers: [ICEServer]
        do {
            parsedServers = try ICEServer.list(parsing: servers ?? "")
        } catch {
            throw CommandFailure(.usage, "--ice-server: \(error)", hint: "e.g. --ice-server 'turn:10.77.2.2:3478?transport=udp'")
        }
        var parsedPolicy = ICETransportPolicy.all
        if let policy {
            guard let value = ICETransportPolicy(rawValue: policy.lowercased()) else {
                throw UsageError.invalidValue(option: "ice-policy", value: policy, expected: "all or relay")
            }
            parsedPolicy = value
        }
        let credentials: ICEServerCredentials?
        switch (username, credential) {
        case (let username?, let credential?): credentials = ICEServerCredentials(username: username, credential: credential)
        case (nil, nil): credentials = nil
        case (nil, _): throw CommandFailure(.usage, "--ice-credential without --ice-username", hint: "give both, or neither")
        case (_, nil): throw CommandFailure(.usage, "--ice-username without --ice-credential", hint: "give both, or neither")
        }
        let ice = ICEConfiguration(addresses: addresses, servers: parsedServers, policy: parsedPolicy)
        do {
            try ice.check(credentials: credentials)
        } catch {
            throw CommandFailure(.usage, "ICE servers: \(error)", hint: Self.iceHint(error))
        }
        return .ice(ice, credentials: credentials)
    }

    private static func iceHint(_ error: ICEConfigurationError) -> String {
        switch error {
        case .relayWithoutTURNServer: "give --ice-server turn:IP:PORT with --ice-policy relay"
        case .missingCredentials, .unusableCredentials: "give --ice-username and --ice-credential, or AGENTD_ICE_USERNAME and AGENTD_ICE_CREDENTIAL"
        case .tooManyServers, .moreThanOneSTUNServer: "give fewer --ice-server values"
        }
    }
}
