import Agent

/// The media half of a ``Bot``: feeds a host channel's ``PublishSession`` on its transport loop.
/// Pulled audio and file frames are paced by a loop timer (``MediaScheduler``); pushed video is
/// handed to the loop as it is encoded; keyframe requests go to the video encoder and reception
/// reports tune the Opus encoder's FEC.
actor BotPacing {
    private var loop: EventLoop
    private let scheduler: MediaScheduler
    private let videoTrack: VideoTrack?
    private let audioTrack: AudioTrack?
    private let pacingInterval: Duration
    private let emit: @Sendable (BotEvent) -> Void
    private var timer: LoopTimer?

    private init(loop: EventLoop, scheduler: MediaScheduler, videoTrack: VideoTrack?, audioTrack: AudioTrack?, pacingInterval: Duration,
                 emit: @escaping @Sendable (BotEvent) -> Void) {
        self.loop = loop
        self.scheduler = scheduler
        self.videoTrack = videoTrack
        self.audioTrack = audioTrack
        self.pacingInterval = pacingInterval
        self.emit = emit
    }

    /// Starts sending `media` on `publishing`'s tracks (found by kind in `tracks`, as the room
    /// took them: the video track encodes the codec the answer chose).
    static func start(
        _ media: sending BotMedia, publishing: PublishSession, tracks: [TrackOffer], pacingInterval: Duration,
        emit: @escaping @Sendable (BotEvent) -> Void
    ) async throws -> BotPacing {
        let midsByKind = Self.mids(tracks)
        let audioTrack = media.audioTrack
        let scheduler = MediaScheduler(
            publishing: publishing, audioTrack: audioTrack.flatMap { track in midsByKind[.audio].map { (track, $0) } },
            playlist: media.playlist, playlistMids: media.playlist == nil ? [:] : midsByKind, playbackLimit: media.playbackLimit,
            emit: emit)
        let pacing = BotPacing(loop: publishing.peer.loop, scheduler: scheduler, videoTrack: media.videoTrack, audioTrack: audioTrack,
                               pacingInterval: pacingInterval, emit: emit)
        try await pacing.attach(to: publishing, tracks: tracks)
        return pacing
    }

    /// Goes on sending on a new session (a reconnect published the tracks again): the old
    /// session's timer stops, the scheduler and the video sink move to the new one, and the
    /// video encoder makes a keyframe for the new subscribers.
    func switchPublishing(to publishing: PublishSession, tracks: [TrackOffer]) async throws {
        videoTrack?.removeSink()
        if let timer {
            self.timer = nil
            try? await loop.submit { timer.cancel() }
        }
        loop = publishing.peer.loop
        try await attach(to: publishing, tracks: tracks, switching: true)
        videoTrack?.requestKeyframe()
    }

    /// Points the scheduler, the timer, the session's feedback handlers and the video sink at
    /// `publishing`, whose `tracks` say the codec the video track is to encode.
    private func attach(to publishing: PublishSession, tracks: [TrackOffer], switching: Bool = false) async throws {
        let midsByKind = Self.mids(tracks)
        let loop = publishing.peer.loop
        let (scheduler, videoTrack, audioTrack, emit, interval) = (self.scheduler, self.videoTrack, self.audioTrack, self.emit, pacingInterval)
        let audioMid = midsByKind[.audio]
        let timer = try await loop.submit {
            if switching { scheduler.switchPublishing(to: publishing, mids: midsByKind) }
            publishing.onKeyframeRequest = { mid in
                videoTrack?.requestKeyframe()
                scheduler.keyframeRequested(mid: mid)
                emit(.keyframeRequested)
            }
            if let audioTrack, let audioMid {
                // Opus spends bits on in-band FEC only for the loss it expects: tell it what the
                // receiver reports (rounded up, at most 30 %).
                publishing.onReceptionReport = { mid, fraction in
                    guard mid == audioMid else { return }
                    try? audioTrack.setExpectedPacketLossPercent(min(30, Int((fraction * 100).rounded(.up))))
                }
            }
            scheduler.tick()
            return loop.scheduleRepeating(every: interval) { scheduler.tick() }
        }
        self.timer = timer
        if let videoTrack, let offer = tracks.first(where: { $0.kind == .video }) {
            let (mid, codec) = (offer.mid, offer.codec)
            try videoTrack.useNegotiated(codec)
            videoTrack.setSink { frame in
                // A push under way when the codec changed still encodes the old one; the
                // stream packetizes only its own.
                guard frame.codec == codec else { return }
                loop.execute {
                    publishing.send(frame: frame.bytes, mid: mid, rtpTimestamp: frame.rtpTimestamp, isKeyframe: frame.isKeyframe)
                }
            }
        }
    }

    private static func mids(_ tracks: [TrackOffer]) -> [MediaKind: String] {
        Dictionary(tracks.map { ($0.kind, $0.mid) }) { first, _ in first }
    }

    /// The scheduler's ``PlaybackProgress``.
    func progress() async -> PlaybackProgress {
        let scheduler = self.scheduler
        return (try? await loop.submit { scheduler.progress }) ?? PlaybackProgress()
    }

    /// Stops sending. Idempotent.
    func stop() async {
        videoTrack?.removeSink()
        guard let timer else { return }
        self.timer = nil
        let scheduler = self.scheduler
        try? await loop.submit {
            timer.cancel()
            scheduler.stop()
        }
    }
}
