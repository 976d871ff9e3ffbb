import Foundation
import Synchronization

@testable import Agent
@testable import AgentCore
@testable import AgentMedia

/// Encoded media for the remote-track sink tests, made with our own encoders, wrapped in
/// ``RemoteFrame``s the way the channel delivers them.
enum RemoteTrackTestMedia {
    /// An unwrapped RTP start near the 32-bit wrap, as a real stream past its first wrap has.
    static let rtpStart: Int64 = (1 << 32) - 48_000
    static let wallStart: Int64 = 1_700_000_000_000_000_000

    /// `count` Opus packets of 20 ms, each as a RemoteFrame with its RTP and wall time; `tone`
    /// gives the sample of channel `c` at 48 kHz sample `n`.
    static func opusPackets(count: Int, channels: Int, bitrate: Int = 64_000,
                            tone: (_ channel: Int, _ sample: Int) -> Int16) throws -> [RemoteFrame] {
        let encoder = try OpusEncoder(configuration: .init(channels: channels, application: .audio, bitrate: bitrate,
                                                           inbandFEC: true, expectedPacketLossPercent: 10))
        var packets: [RemoteFrame] = []
        var packet: [UInt8] = []
        for index in 0..<count {
            var pcm: [Int16] = []
            pcm.reserveCapacity(960 * channels)
            for sample in (index * 960)..<((index + 1) * 960) {
                for channel in 0..<channels { pcm.append(tone(channel, sample)) }
            }
            try encoder.encode(pcm, into: &packet)
            packets.append(audioFrame(packet, index: index))
        }
        return packets
    }

    static func audioFrame(_ bytes: [UInt8], index: Int) -> RemoteFrame {
        RemoteFrame(participantID: "alice", kind: .audio, codec: .opus, bytes: bytes, isKeyframe: true,
                    rtpTimestamp: rtpStart + Int64(index) * 960, clockRate: 48_000,
                    wallTimeNanoseconds: wallStart + Int64(index) * 20_000_000, mappedBySenderReport: true)
    }

    static func sine(frequency: Double, amplitude: Double = 12_000) -> (Int, Int) -> Int16 {
        { _, sample in Int16(amplitude * sin(2 * Double.pi * frequency * Double(sample) / 48_000)) }
    }

    /// `count` frames of the moving test pattern at 30 fps, VP8 or VP9, keyframes at 0 and at
    /// `keyframesAt`; RTP times on the 90 kHz clock.
    static func videoFrames(count: Int, codec: VPXCodec = .vp8, width: Int = 160, height: Int = 120,
                            keyframesAt: Set<Int> = []) throws -> [(frame: RemoteFrame, original: I420Frame)] {
        let encoder = try VPXEncoder(configuration: .init(codec: codec, bitrate: 600_000))
        var frames: [(RemoteFrame, I420Frame)] = []
        for index in 0..<count {
            if keyframesAt.contains(index) { encoder.forceKeyframe() }
            let original = try I420Frame.testPattern(width: width, height: height, frameIndex: index)
            for encoded in try encoder.encode(original, pts: Int64(index) * 3000) {
                let frame = RemoteFrame(
                    participantID: "bob", kind: .video, codec: codec == .vp8 ? .vp8 : .vp9, bytes: encoded.data,
                    isKeyframe: encoded.isKeyframe, rtpTimestamp: rtpStart + encoded.pts, clockRate: 90_000,
                    wallTimeNanoseconds: wallStart + encoded.pts * 1_000_000_000 / 90_000, mappedBySenderReport: false)
                frames.append((frame, original))
            }
        }
        return frames
    }
}

/// Collects what a sink delivers, from whichever thread.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}
