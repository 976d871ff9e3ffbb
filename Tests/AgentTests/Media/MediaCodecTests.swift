import Foundation
import Testing

@testable import Agent
@testable import AgentCore
@testable import AgentMedia
@testable import AgentSession

/// The codec table's strings are contracts: SDP lines, WebM CodecIDs, manifest names and the
/// codec refusal lines users read.
@Suite struct MediaCodecTests {
    @Test func namesKindsAndClocks() {
        let rows = MediaCodec.allCases.map { "\($0.encodingName) \($0.name) \($0.kind.rawValue) \($0.clockRate) \($0.channels)" }
        #expect(rows == [
            "opus opus audio 48000 2", "VP8 vp8 video 90000 0", "VP9 vp9 video 90000 0", "H264 h264 video 90000 0",
        ])
        // Printed in refusal lines ("VP8 video"): the raw value is the encoding name.
        #expect(MediaCodec.allCases.map(\.rawValue) == ["opus", "VP8", "VP9", "H264"])
    }

    @Test func encodingNamesCompareCaseInsensitively() {
        #expect(MediaCodec(encodingName: "OPUS") == .opus)
        #expect(MediaCodec(encodingName: "vp8") == .vp8)
        #expect(MediaCodec(encodingName: "Vp9") == .vp9)
        #expect(MediaCodec(encodingName: "h264") == .h264)
        #expect(MediaCodec(encodingName: "H265") == nil)
        #expect(MediaCodec(encodingName: "") == nil)
    }

    @Test func matroskaCodecIDsAreExact() {
        #expect(MediaCodec.allCases.map(\.matroskaCodecID) == ["A_OPUS", "V_VP8", "V_VP9", "V_MPEG4/ISO/AVC"])
        for codec in MediaCodec.allCases { #expect(MediaCodec(matroskaCodecID: codec.matroskaCodecID) == codec) }
        #expect(MediaCodec(matroskaCodecID: "v_vp8") == nil)
        #expect(MediaCodec(matroskaCodecID: "A_VORBIS") == nil)
    }

    @Test func rtpmapLines() {
        #expect(MediaCodec.opus.rtpmap(payloadType: 111) == "111 opus/48000/2")
        #expect(MediaCodec.vp8.rtpmap(payloadType: 96) == "96 VP8/90000")
        #expect(MediaCodec.vp9.rtpmap(payloadType: 98, clockRate: 90_000, channels: 2) == "98 VP9/90000")
        #expect(MediaCodec.opus.rtpmap(payloadType: 109, clockRate: 48_000, channels: 1) == "109 opus/48000/1")
    }

    @Test func theLibvpxViewHoldsVideoOnly() {
        #expect(VPXCodec(.opus) == nil)
        #expect(VPXCodec(.h264) == nil)
        #expect(MediaCodec.allCases.compactMap(VPXCodec.init).map(\.mediaCodec) == [.vp8, .vp9])
        #expect(VPXCodec.allCases.map(\.encodingName) == ["VP8", "VP9"])
    }

    /// Only what SendStream packetizes may be sent; a codec without a packetizer is refused, not
    /// packetized as another one.
    @Test func sendStreamRefusesACodecItCannotPacketize() {
        #expect(MediaCodec.allCases.filter(\.canPacketize) == [.opus, .vp8, .h264])
        for codec in MediaCodec.allCases {
            let configuration = SendStream.Configuration(codec: codec, ssrc: 1, payloadType: codec.defaultPayloadType, cname: "c")
            if codec.canPacketize {
                #expect(throws: Never.self) { try SendStream(configuration: configuration) }
            } else {
                #expect(throws: SendStreamError.unsupportedCodec(codec)) { try SendStream(configuration: configuration) }
            }
        }
    }

    /// The manifest's "kind" strings (a contract).
    @Test func mediaKindCodesAsItsName() throws {
        let json = try JSONEncoder().encode([MediaKind.audio, .video])
        #expect(String(decoding: json, as: UTF8.self) == #"["audio","video"]"#)
        #expect(try JSONDecoder().decode([MediaKind].self, from: Data(#"["video"]"#.utf8)) == [.video])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([MediaKind].self, from: Data(#"["data"]"#.utf8)) }
    }
}
