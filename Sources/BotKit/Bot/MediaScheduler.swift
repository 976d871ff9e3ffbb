import Agent

/// Paces a bot's pulled media on the transport loop against one absolute clock: a live audio
/// track gives a 20 ms Opus packet every 20 ms (silence when nothing was pushed), and a playlist's
/// frames go out at start + their playback time. Runs from a repeating loop timer, so there is
/// no task or thread hop per frame. The work behind the frames is not done here: the track's
/// packets are encoded ahead (``AudioPrefetch``) and the playlist is read ahead
/// (``FramePrefetch``) on worker lanes, and the loop only sends. Pushed video does not pass
/// through here: its encoder hands frames to the loop as they are made.
///
/// Confined to the loop (every method runs from the loop's timer or through `loop.execute`).
final class MediaScheduler: @unchecked Sendable {
    // @unchecked Sendable: all state is touched only on `publishing.peer.loop` (after a
    // reconnect, the new session's loop; the old loop's timer is cancelled before the switch).
    // Every entry point checks it, in release builds too (`EventLoop.assertInLoop` traps).

    struct Output {
        var mid: String
        var kind: MediaKind
    }

    static let audioFrame = Duration.milliseconds(20)
    static let audioFrameTicks: Int64 = 960
    /// Behind by more than this (the process stalled), the audio clock skips ahead instead of
    /// bursting the missed frames.
    static let maxAudioLag = Duration.milliseconds(200)

    private(set) var publishing: PublishSession
    private let emit: @Sendable (BotEvent) -> Void
    private let start: ContinuousClock.Instant
    private var audio: (prefetch: AudioPrefetch, mid: String)?
    private var audioFrameIndex: Int64 = 0
    private(set) var audioFramesSkipped: Int64 = 0

    private let playlist: FramePrefetch?
    /// Answers keyframe requests for the playlist's video; nil without a playlist.
    private var keyframeBridge: KeyframeBridge?
    private var playlistMids: [MediaKind: String]
    private var playbackLimit: Int64?
    private var pendingItem: FramePlaylist.Item?
    private var position: (entry: Int, pass: Int)?
    private var playlistFrames = 0
    private(set) var playbackEnd: BotEvent.PlaybackEnd?

    init(
        publishing: PublishSession, audioTrack: (AudioTrack, String)?, playlist: FramePlaylist?, playlistMids: [MediaKind: String],
        playbackLimit: Duration?, emit: @escaping @Sendable (BotEvent) -> Void
    ) {
        self.publishing = publishing
        audio = audioTrack.map { (prefetch: AudioPrefetch(track: $0.0), mid: $0.1) }
        self.playlist = playlist.map { FramePrefetch($0) }
        self.playlistMids = playlistMids
        self.playbackLimit = playbackLimit.map { $0.totalNanoseconds }
        self.emit = emit
        start = .now
        if playlist != nil {
            keyframeBridge = KeyframeBridge(loop: publishing.peer.loop) { [weak self] item in self?.send(item) }
        }
    }

    /// Sends on `session` from now on (a reconnect published the tracks again), with the mids it
    /// knows them by. The clocks go on: what was due during the outage is skipped, not burst.
    func switchPublishing(to session: PublishSession, mids: [MediaKind: String]) {
        session.peer.loop.assertInLoop()
        publishing = session
        if let audio, let mid = mids[.audio] { self.audio = (audio.prefetch, mid) }
        if !playlistMids.isEmpty { playlistMids = mids }
        keyframeBridge?.reset(loop: session.peer.loop)
    }

    /// A receiver of `mid` asked for a keyframe: the playlist's video answers with one of its own.
    func keyframeRequested(mid: String) {
        publishing.peer.loop.assertInLoop()
        guard mid == playlistMids[.video] else { return }
        keyframeBridge?.requestKeyframe()
    }

    /// Sends everything due by now.
    func tick() {
        publishing.peer.loop.assertInLoop()
        let now = ContinuousClock.now
        sendAudio(now: now)
        sendPlaylist(now: now)
    }

    private func sendAudio(now: ContinuousClock.Instant) {
        guard let (prefetch, mid) = audio else { return }
        let elapsed = now - start
        var due = Self.audioFrame * Int(audioFrameIndex)
        if elapsed - due > Self.maxAudioLag {
            let skipTo = Int64(elapsed / Self.audioFrame)
            audioFramesSkipped += skipTo - audioFrameIndex
            audioFrameIndex = skipTo
            due = Self.audioFrame * Int(audioFrameIndex)
        }
        while due <= elapsed {
            // Not encoded yet (counted): the next tick sends it, a tick late.
            guard let packet = prefetch.take() else { return }
            publishing.send(frame: packet.bytes, mid: mid, rtpTimestamp: audioFrameIndex * Self.audioFrameTicks, isKeyframe: true)
            audioFrameIndex += 1
            due = Self.audioFrame * Int(audioFrameIndex)
        }
    }

    private func sendPlaylist(now: ContinuousClock.Instant) {
        guard let playlist, playbackEnd == nil else { return }
        let elapsed = (now - start).totalNanoseconds
        while true {
            if pendingItem == nil {
                switch playlist.next() {
                case .item(let item):
                    pendingItem = item
                case .waiting:
                    return
                case .ended(let readError?):
                    finish(.readError(readError))
                    return
                case .ended(nil):
                    finish(.endOfFiles)
                    return
                }
            }
            guard let item = pendingItem else { return }
            if let playbackLimit, item.playbackNanoseconds >= playbackLimit {
                finish(.duration)
                return
            }
            guard item.playbackNanoseconds <= elapsed else { return }
            pendingItem = nil
            noteEntry(item)
            if item.kind == .video, let keyframeBridge {
                guard let stored = keyframeBridge.route(item) else { continue }
                send(stored)
            } else {
                send(item)
            }
        }
    }

    /// Sends a playlist item on its track's mid, at the RTP time of its playback time.
    private func send(_ item: FramePlaylist.Item) {
        publishing.peer.loop.assertInLoop()
        guard let mid = playlistMids[item.kind] else { return }
        let clockRate: Int64 = item.kind == .audio ? 48_000 : 90_000
        publishing.send(
            frame: item.frame.bytes, mid: mid, rtpTimestamp: item.playbackNanoseconds * clockRate / 1_000_000_000,
            isKeyframe: item.frame.isKeyframe)
        playlistFrames += 1
    }

    private func noteEntry(_ item: FramePlaylist.Item) {
        if let position, position != (item.entry, item.pass) {
            emit(.fileEnded(entry: position.entry, pass: position.pass))
        }
        position = (item.entry, item.pass)
    }

    private func finish(_ end: BotEvent.PlaybackEnd) {
        playbackEnd = end
        playlist?.stop()
        if let position, end != .duration { emit(.fileEnded(entry: position.entry, pass: position.pass)) }
        emit(.playbackFinished(end))
    }

    /// Frames sent, passes started (the playlist's), and what the lanes had not ready in time.
    var progress: PlaybackProgress {
        publishing.peer.loop.assertInLoop()
        var progress = PlaybackProgress()
        progress.frames = playlistFrames
        progress.passes = (position?.pass ?? 0) + 1
        progress.lateAudioPackets = audio?.prefetch.late ?? 0
        progress.lateFileFrames = playlist?.underruns ?? 0
        progress.keyframesMade = keyframeBridge?.keyframesMade ?? 0
        return progress
    }

    /// Ends the lanes' work for this scheduler (the bot stopped).
    func stop() {
        publishing.peer.loop.assertInLoop()
        audio?.prefetch.stop()
        playlist?.stop()
    }
}
