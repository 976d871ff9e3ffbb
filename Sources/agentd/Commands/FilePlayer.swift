import Agent
import BotKit
import Foundation
import Synchronization

/// The running part of `agentd play`: join as a publisher, offer the files' tracks, and send
/// their stored frames paced by their own timestamps against one absolute clock.
struct FilePlayer {
    struct Summary {
        var frames = 0
        var passes = 1
        var stoppedBy = "end of files"
    }

    let server: String
    let room: String
    let display: String
    let token: String?
    let pin: String?
    let create: Bool
    let addresses: [String]
    let sources: [EncodedFrameSource]

    func play(duration: Double?, loop repeatFiles: Bool) async throws -> Summary {
        let loop = EventLoop(name: "agentd.transport")
        defer { loop.shutdown() }
        let connection = JanusConnection(url: server, loop: loop, token: token)
        try await connection.connect()
        let session = try await JanusSession.create(on: connection)
        let videoRoom = try await VideoRoom.attach(to: session)
        var peer: PeerConnection?
        do {
            if create, try await !videoRoom.exists(room: room) {
                var options = VideoRoomCreateOptions()
                options.pin = pin
                try? await videoRoom.create(room: room, options: options)
            }
            _ = try await videoRoom.joinAsPublisher(room: room, display: display, pin: pin)
            var tracks: [OfferBuilder.Track] = []
            for source in sources {
                let mid = String(tracks.count)
                tracks.append(source.kind == .audio
                    ? OfferBuilder.Track(mid: mid, kind: .audio, codec: .opus, payloadType: 111, ssrc: UInt32.random(in: 1...UInt32.max))
                    : OfferBuilder.Track(mid: mid, kind: .video, codec: .vp8, payloadType: 96, ssrc: UInt32.random(in: 1...UInt32.max)))
            }
            let connectionPeer = try PeerConnection(loop: loop, localAddresses: addresses)
            peer = connectionPeer
            let offer = try await connectionPeer.offer(tracks: tracks, dataChannelLabel: nil)
            let answer: SessionDescription
            do {
                answer = try SessionDescription.parse(try await videoRoom.publish(offer: offer.text))
            } catch {
                throw await CodecRefusal.failure(afterPublishError: error, room: room, tracks: tracks, videoRoom: videoRoom)
            }
            let rejected = OfferBuilder.tracksRefused(by: answer, offered: tracks)
            if !rejected.isEmpty { throw await CodecRefusal.failure(room: room, rejected: rejected, videoRoom: videoRoom) }
            try await connectionPeer.acceptAnswer(answer)
            try await waitConnected(connectionPeer, loop: loop)
            let publishing = try PublishSession(peer: connectionPeer, tracks: tracks)
            try await loop.submit { publishing.start() }
            let summary = await pace(publishing: publishing, loop: loop, tracks: tracks, duration: duration, repeatFiles: repeatFiles)
            try? await loop.submit { publishing.stop() }
            try? await videoRoom.unpublish()
            connectionPeer.close()
            await videoRoom.close()
            return summary
        } catch {
            peer?.close()
            await videoRoom.close()
            throw error
        }
    }

    private func waitConnected(_ peer: PeerConnection, loop: EventLoop) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            let state = try await loop.submit { peer.state }
            if state == .connected { return }
            if case .failed(let reason) = state { throw CommandFailure(.connectionFailed, "the media connection failed: \(reason)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CommandFailure(.connectionFailed, "no media connection to Janus within 15 s", hint: "check --ice-allow")
    }

    /// Sends frames at start + their playback time until the files end, the duration passes or
    /// a signal comes.
    private func pace(publishing: PublishSession, loop: EventLoop, tracks: [OfferBuilder.Track], duration: Double?, repeatFiles: Bool) async -> Summary {
        let playlist = FramePlaylist(sources: sources, loop: repeatFiles)
        let stopSignal = StopSignal()
        defer { stopSignal.cancel() }
        let stopped = Mutex<String?>(nil)
        let signalTask = Task {
            let number = await stopSignal.wait()
            if number != 0 { stopped.withLock { $0 = $0 ?? "signal" } }
        }
        defer { signalTask.cancel() }
        let midByKind = Dictionary(tracks.map { ($0.kind, $0.mid) }) { first, _ in first }
        let start = ContinuousClock.now
        var summary = Summary()
        let limit = duration.map { Int64($0 * 1_000_000_000) }
        while true {
            if let reason = stopped.withLock({ $0 }) {
                summary.stoppedBy = reason
                break
            }
            guard let item = try? playlist.next() else { break }
            if let limit, item.playbackNanoseconds >= limit {
                summary.stoppedBy = "duration"
                break
            }
            try? await Task.sleep(until: start + .nanoseconds(item.playbackNanoseconds), clock: .continuous)
            guard let mid = midByKind[item.kind] else { continue }
            let clockRate: Int64 = item.kind == .audio ? 48_000 : 90_000
            let rtpTimestamp = item.playbackNanoseconds * clockRate / 1_000_000_000
            let frame = item.frame
            loop.execute {
                publishing.send(frame: frame.bytes, mid: mid, rtpTimestamp: rtpTimestamp, isKeyframe: frame.isKeyframe)
            }
            summary.frames += 1
            summary.passes = item.pass + 1
        }
        return summary
    }
}
