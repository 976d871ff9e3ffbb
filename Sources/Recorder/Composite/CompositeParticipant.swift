import Agent

/// One participant's stay as the compositor sees it: when they are on screen, their video
/// decoder and the pictures waiting to be shown. A rejoin under the same name is a new stay.
final class CompositeParticipant {
    let name: String
    let display: String
    let joinedMs: Int64
    var leftMs: Int64?
    var decoder: VideoDecoder?
    var pictures: PictureQueue
    /// The newest video frame's time (decoded or not): how far their video has come.
    var lastVideoMs: Int64?
    /// After a frame that did not decode, or a dropped one, the decoder waits for a keyframe.
    var awaitingKeyframe = true
    var framesUndecodable: Int64 = 0

    init(name: String, display: String, joinedMs: Int64, grid: FrameGrid) {
        self.name = name
        self.display = display
        self.joinedMs = joinedMs
        pictures = PictureQueue(grid: grid)
    }

    /// On screen at `ms`: joined and not yet left.
    func isPresent(atMs ms: Int64) -> Bool {
        joinedMs <= ms && leftMs.map { ms < $0 } ?? true
    }

    /// Decodes one frame of theirs shown at `ms` and queues its pictures. A codec change (a
    /// republish) gets a new decoder; until a keyframe nothing decodes.
    func decode(_ bytes: [UInt8], codec: MediaCodec, isKeyframe: Bool, atMs ms: Int64) {
        lastVideoMs = max(lastVideoMs ?? ms, ms)
        if decoder?.codec != codec {
            decoder = try? VideoDecoder(codec: codec)
            awaitingKeyframe = true
        }
        guard let decoder, !awaitingKeyframe || isKeyframe else {
            framesUndecodable += 1
            return
        }
        do {
            for picture in try decoder.decode(bytes) { pictures.append(picture, atMs: ms) }
            awaitingKeyframe = false
        } catch {
            framesUndecodable += 1
            awaitingKeyframe = true
        }
    }
}
