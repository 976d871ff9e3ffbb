import Agent

extension BotMedia {
    /// The tracks to offer for this media: audio first, then video. A video track offers its
    /// codec, or with the room's choice every codec of ``VideoTrack/roomChoices`` (the answer
    /// picks one; ``BotPacing`` tells the track which).
    func tracks() throws(BotError) -> [TrackOffer] {
        let fileKinds = playlist?.kinds ?? []
        if audioTrack != nil, fileKinds.contains(.audio) { throw .conflictingSources("an audio track and an audio file") }
        if videoTrack != nil, fileKinds.contains(.video) { throw .conflictingSources("a video track and a video file") }
        var tracks: [TrackOffer] = []
        if audioTrack != nil || fileKinds.contains(.audio) {
            tracks.append(.init(mid: String(tracks.count), codec: .opus, ssrc: UInt32.random(in: 1...UInt32.max)))
        }
        let fileVideo = playlist?.videoCodecs ?? []
        if fileVideo.count > 1 {
            throw .conflictingSources("video files in \(fileVideo.map(\.name).joined(separator: " and ")) (one track sends one codec)")
        }
        if let videoTrack {
            let codecs = videoTrack.offeredCodecs
            if let unsendable = codecs.first(where: { !$0.canPacketize }) { throw .cannotSend(unsendable) }
            guard let first = codecs.first else { throw .nothingToPublish }
            tracks.append(.init(mid: String(tracks.count), codec: first, ssrc: UInt32.random(in: 1...UInt32.max),
                                alternatives: Array(codecs.dropFirst())))
        } else if fileKinds.contains(.video) {
            tracks.append(.init(mid: String(tracks.count), codec: fileVideo.first ?? .vp8, ssrc: UInt32.random(in: 1...UInt32.max)))
        }
        guard !tracks.isEmpty else { throw .nothingToPublish }
        return tracks
    }
}
