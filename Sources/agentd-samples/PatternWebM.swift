import Agent
import Recorder

/// Muxes ``PatternVideo`` and ``ToneAudio`` into one WebM with Recorder's ``WebMWriter``: track 1
/// Opus (mono), track 2 VP8 320x240.
///
/// Block times are the media times in milliseconds: audio packet `k` at `20 k`, video frame `i` at
/// its 90 kHz pts / 90. The writer needs blocks in time order across tracks, so the two lists are
/// merged (audio first on a tie). The track's CodecDelay (312 samples) matches the encoder's
/// lookahead, so a player that honours it puts sample `n` of the signal at `n / 48000` s, the
/// same instant as the white frame of a ``SyncMark``.
enum PatternWebM {
    static func write(video: PatternVideo, audio: ToneAudio, to path: String) throws {
        let audioTrack: UInt8 = 1, videoTrack: UInt8 = 2
        let writer = try WebMWriter(path: path, tracks: [
            .opus(number: audioTrack, channels: 1),
            .video(number: videoTrack, codec: .vp8, width: PatternVideo.width, height: PatternVideo.height),
        ])
        var audioIndex = 0, videoIndex = 0
        while audioIndex < audio.packets.count || videoIndex < video.frames.count {
            let audioMs = audioIndex < audio.packets.count ? ToneAudio.milliseconds(ofPacket: audioIndex) : .max
            let videoMs = videoIndex < video.frames.count ? video.frames[videoIndex].pts / 90 : .max
            if audioMs <= videoMs {
                try writer.write(track: audioTrack, timestampMs: audioMs, keyframe: true, frame: audio.packets[audioIndex])
                audioIndex += 1
            } else {
                let frame = video.frames[videoIndex]
                try writer.write(track: videoTrack, timestampMs: videoMs, keyframe: frame.isKeyframe, frame: frame.data)
                videoIndex += 1
            }
        }
        try writer.close()
    }
}
