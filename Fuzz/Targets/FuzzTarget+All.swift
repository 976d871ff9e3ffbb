/// Every target, one per parser of untrusted bytes.
extension FuzzTarget {
    public static let all: [FuzzTarget] = [
        .rtp, .rtcp, .sdp, .iceCandidate, .iceServer, .dcep, .janusJSON, .vp8, .vp9, .h264, .jitterBuffer, .receiveStream, .webm,
        .ivf, .oggOpus, .janusToken, .recipe, .http, .h264ParameterSets, .h264Stored,
        .recordingReport, .recordingManifest, .speechCommandLine, .responderLine, .replyPattern, .redisReply,
        .rtpdump, .captureDescription,
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
