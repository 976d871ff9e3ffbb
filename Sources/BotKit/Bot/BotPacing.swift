import Agent

/// The media half of a ``Bot``: feeds a host channel's ``PublishSession`` on its transport loop.
/// Pulled audio and file frames are paced by a loop timer (``MediaScheduler``); pushed video is
/// handed to the loop as it is encoded; keyframe requests go to the video encoder and reception
/// reports tune the Opus encoder's FEC.
actor BotPacing {
    private let loop: EventLoop
    private let scheduler: MediaScheduler
    private let videoTrack: VideoTrack?
    private var timer: LoopTimer?

    private init(loop: EventLoop, scheduler: MediaScheduler, videoTrack: VideoTrack?) {
        self.loop = loop
        self.scheduler = scheduler
        self.videoTrack = videoTrack
    }

    /// Starts sending `media` on `publishing`'s tracks (found by kind in `tracks`).
    static func start(
        _ media: sending BotMedia, publishing: PublishSession, tracks: [OfferBuilder.Track], pacingInterval: Duration,
        emit: @escaping @Sendable (BotEvent) -> Void
    ) async throws -> BotPacing {
        let loop = publishing.peer.loop
        let midsByKind = Dictionary(tracks.map { ($0.kind, $0.mid) }) { first, _ in first }
        let videoTrack = media.videoTrack
        let audioTrack = media.audioTrack
        let audioMid = midsByKind[.audio]
        let scheduler = MediaScheduler(
            publishing: publishing, audioTrack: audioTrack.flatMap { track in audioMid.map { (track, $0) } },
            playlist: media.playlist, playlistMids: media.playlist == nil ? [:] : midsByKind, playbackLimit: media.playbackLimit,
            emit: emit)
        let pacing = BotPacing(loop: loop, scheduler: scheduler, videoTrack: videoTrack)
        let timer = try await loop.submit {
            publishing.onKeyframeRequest = { _ in
                videoTrack?.requestKeyframe()
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
            return loop.scheduleRepeating(every: pacingInterval) { scheduler.tick() }
        }
        await pacing.setTimer(timer)
        if let videoTrack, let mid = midsByKind[.video] {
            videoTrack.setSink { frame in
                loop.execute {
                    publishing.send(frame: frame.bytes, mid: mid, rtpTimestamp: frame.rtpTimestamp, isKeyframe: frame.isKeyframe)
                }
            }
        }
        return pacing
    }

    private func setTimer(_ timer: LoopTimer) {
        self.timer = timer
    }

    /// Frames sent from the playlist and passes started.
    func playbackProgress() async -> (frames: Int, passes: Int) {
        let scheduler = self.scheduler
        return (try? await loop.submit { (scheduler.playlistFrames, scheduler.passes) }) ?? (0, 0)
    }

    /// Stops sending. Idempotent.
    func stop() async {
        videoTrack?.removeSink()
        guard let timer else { return }
        self.timer = nil
        try? await loop.submit { timer.cancel() }
    }
}
