import CAgentShims
import COpus
import Synchronization

/// Encodes 48 kHz PCM into Opus packets (RFC 6716) for WebRTC audio.
///
/// WebRTC always signals Opus as `opus/48000/2` (RFC 7587 §7), whatever the real channel count, so
/// the encoder runs at 48 kHz only. One call encodes one frame of 2.5, 5, 10, 20, 40 or 60 ms
/// (120 ... 2880 samples per channel); 20 ms is what browsers send.
///
/// PCM is interleaved (`L R L R ...` for stereo). The packet is written into a buffer the caller
/// owns, so a sending loop allocates nothing per frame.
public final class OpusEncoder: @unchecked Sendable {
    // @unchecked Sendable: the only mutable state is the libopus encoder behind `encoder`, and every
    // call that touches it runs inside `lock.withLock`, so callers on different threads (the media
    // thread encoding, the transport loop adjusting bitrate after RTCP feedback) are serialized.

    public static let sampleRate = 48_000
    /// libopus's documented safe upper bound for one packet.
    public static let maxPacketBytes = 4000
    /// Samples per channel of the frame durations Opus can encode (2.5 ms ... 60 ms at 48 kHz).
    public static let validFrameSizes: Set<Int> = [120, 240, 480, 960, 1920, 2880]

    /// What the signal is, which steers libopus's mode decisions (SILK for speech, CELT for music).
    public enum Application: Sendable, Equatable {
        /// Speech, favouring intelligibility (`OPUS_APPLICATION_VOIP`).
        case voip
        /// Music or mixed content, favouring fidelity (`OPUS_APPLICATION_AUDIO`).
        case audio
        /// CELT only, lowest delay (`OPUS_APPLICATION_RESTRICTED_LOWDELAY`).
        case restrictedLowDelay

        var libopusValue: Int32 {
            switch self {
            case .voip: OPUS_APPLICATION_VOIP
            case .audio: OPUS_APPLICATION_AUDIO
            case .restrictedLowDelay: OPUS_APPLICATION_RESTRICTED_LOWDELAY
            }
        }
    }

    /// Encoder settings. The defaults suit a WebRTC voice track.
    public struct Configuration: Sendable, Equatable {
        /// 1 (mono) or 2 (stereo).
        public var channels: Int
        public var application: Application
        /// Target bits per second (libopus accepts 500 ... 512000).
        public var bitrate: Int
        /// 0 (fastest) ... 10 (best).
        public var complexity: Int
        /// Variable bitrate; constant bitrate is only worth it where packet sizes leak content.
        public var variableBitrate: Bool
        /// In-band forward error correction (RFC 6716 §2.1.7): each packet carries a low-rate copy of
        /// the previous frame, which ``OpusDecoder/decodeFEC(_:samplesPerChannel:)`` recovers.
        public var inbandFEC: Bool
        /// The loss rate the encoder should plan for; FEC only kicks in when this is above zero.
        public var expectedPacketLossPercent: Int
        /// Discontinuous transmission: during silence libopus emits packets of 1-2 bytes that a
        /// sender may skip, which is the point (RFC 7587 §3.1.3).
        public var discontinuousTransmission: Bool

        public init(channels: Int = 1, application: Application = .voip, bitrate: Int = 32_000,
                    complexity: Int = 9, variableBitrate: Bool = true, inbandFEC: Bool = false,
                    expectedPacketLossPercent: Int = 0, discontinuousTransmission: Bool = false) {
            self.channels = channels
            self.application = application
            self.bitrate = bitrate
            self.complexity = complexity
            self.variableBitrate = variableBitrate
            self.inbandFEC = inbandFEC
            self.expectedPacketLossPercent = expectedPacketLossPercent
            self.discontinuousTransmission = discontinuousTransmission
        }
    }

    public let channels: Int
    public private(set) var configuration: Configuration {
        get { storedConfiguration.withLock { $0 } }
        set { storedConfiguration.withLock { $0 = newValue } }
    }

    private let encoder: OpaquePointer
    private let lock = Mutex(())
    private let storedConfiguration: Mutex<Configuration>

    public init(configuration: Configuration = Configuration()) throws(OpusError) {
        guard configuration.channels == 1 || configuration.channels == 2 else {
            throw .invalidArgument("channels must be 1 or 2, got \(configuration.channels)")
        }
        var status: Int32 = OPUS_OK
        let created = opus_encoder_create(opus_int32(Self.sampleRate), Int32(configuration.channels),
                                          configuration.application.libopusValue, &status)
        guard let encoder = created, status == OPUS_OK else {
            if let created { opus_encoder_destroy(created) }
            let code = status < 0 ? status : OPUS_ALLOC_FAIL
            throw .library(operation: "opus_encoder_create", code: code, message: OpusError.message(for: code))
        }
        self.encoder = encoder
        self.channels = configuration.channels
        self.storedConfiguration = Mutex(configuration)
        // deinit frees the encoder if applying the settings fails below.
        try apply(configuration)
    }

    deinit {
        opus_encoder_destroy(encoder)
    }

    // MARK: Settings

    /// Applies every setting in `configuration` except the channel count and application, which
    /// are fixed when the encoder is created.
    public func apply(_ configuration: Configuration) throws(OpusError) {
        guard configuration.channels == channels else {
            throw .invalidArgument("channel count is fixed at \(channels)")
        }
        try set(OPUS_SET_BITRATE_REQUEST, configuration.bitrate, "OPUS_SET_BITRATE")
        try set(OPUS_SET_COMPLEXITY_REQUEST, configuration.complexity, "OPUS_SET_COMPLEXITY")
        try set(OPUS_SET_VBR_REQUEST, configuration.variableBitrate ? 1 : 0, "OPUS_SET_VBR")
        try set(OPUS_SET_INBAND_FEC_REQUEST, configuration.inbandFEC ? 1 : 0, "OPUS_SET_INBAND_FEC")
        try set(OPUS_SET_PACKET_LOSS_PERC_REQUEST, configuration.expectedPacketLossPercent,
                "OPUS_SET_PACKET_LOSS_PERC")
        try set(OPUS_SET_DTX_REQUEST, configuration.discontinuousTransmission ? 1 : 0, "OPUS_SET_DTX")
        var kept = configuration
        kept.application = self.configuration.application
        self.configuration = kept
    }

    /// Changes the target bitrate, e.g. after a REMB or TWCC estimate.
    public func setBitrate(_ bitsPerSecond: Int) throws(OpusError) {
        try set(OPUS_SET_BITRATE_REQUEST, bitsPerSecond, "OPUS_SET_BITRATE")
        configuration.bitrate = bitsPerSecond
    }

    /// Tells the encoder the loss rate receivers report (RTCP RR fraction lost), so FEC can adapt.
    public func setExpectedPacketLossPercent(_ percent: Int) throws(OpusError) {
        try set(OPUS_SET_PACKET_LOSS_PERC_REQUEST, percent, "OPUS_SET_PACKET_LOSS_PERC")
        configuration.expectedPacketLossPercent = percent
    }

    /// The bitrate libopus actually uses (it clamps what it was given).
    public var effectiveBitrate: Int {
        (try? get(OPUS_GET_BITRATE_REQUEST, "OPUS_GET_BITRATE")) ?? configuration.bitrate
    }

    /// Samples per channel the encoder delays its input by. A decoder's output lags the encoder's
    /// input by this much, which matters when comparing them or aligning recordings.
    public var lookahead: Int {
        (try? get(OPUS_GET_LOOKAHEAD_REQUEST, "OPUS_GET_LOOKAHEAD")) ?? 0
    }

    /// Forgets all history, as if freshly created (settings are kept).
    public func reset() throws(OpusError) {
        let status = lock.withLock { _ in agent_opus_encoder_reset(encoder) }
        try OpusError.check(status, "OPUS_RESET_STATE")
    }

    // MARK: Encoding

    /// Encodes one frame of interleaved PCM into `packet` and returns the packet's length in bytes.
    ///
    /// `pcm.count` must be a valid frame size times ``channels``. With DTX on, a result of 2 bytes
    /// or less is a silence packet that need not be sent.
    public func encode(_ pcm: UnsafeBufferPointer<Int16>,
                       into packet: UnsafeMutableRawBufferPointer) throws(OpusError) -> Int {
        let frameSize = try validatedFrameSize(sampleCount: pcm.count)
        guard let input = pcm.baseAddress else { throw .invalidArgument("empty PCM buffer") }
        guard let output = packet.baseAddress, !packet.isEmpty else {
            throw .invalidArgument("empty packet buffer")
        }
        let status = lock.withLock { _ in
            opus_encode(encoder, input, Int32(frameSize), output.assumingMemoryBound(to: UInt8.self),
                        opus_int32(clamping: packet.count))
        }
        return Int(try OpusError.check(status, "opus_encode"))
    }

    /// Float variant of ``encode(_:into:)-(UnsafeBufferPointer<Int16>,_)``; samples are in -1 ... 1.
    public func encode(_ pcm: UnsafeBufferPointer<Float>,
                       into packet: UnsafeMutableRawBufferPointer) throws(OpusError) -> Int {
        let frameSize = try validatedFrameSize(sampleCount: pcm.count)
        guard let input = pcm.baseAddress else { throw .invalidArgument("empty PCM buffer") }
        guard let output = packet.baseAddress, !packet.isEmpty else {
            throw .invalidArgument("empty packet buffer")
        }
        let status = lock.withLock { _ in
            opus_encode_float(encoder, input, Int32(frameSize), output.assumingMemoryBound(to: UInt8.self),
                              opus_int32(clamping: packet.count))
        }
        return Int(try OpusError.check(status, "opus_encode_float"))
    }

    /// Encodes one frame into `packet`, which ends up holding exactly the packet's bytes. Its
    /// storage is reused from call to call, so a loop that passes the same array allocates once.
    public func encode(_ pcm: [Int16], into packet: inout [UInt8]) throws(OpusError) {
        Self.growForEncoding(&packet)
        let result = pcm.withUnsafeBufferPointer { input in
            packet.withUnsafeMutableBytes { output in
                Result { () throws(OpusError) in try encode(input, into: output) }
            }
        }
        Self.trim(&packet, to: result)
        _ = try result.get()
    }

    /// Float variant of ``encode(_:into:)-([Int16],_)``.
    public func encode(_ pcm: [Float], into packet: inout [UInt8]) throws(OpusError) {
        Self.growForEncoding(&packet)
        let result = pcm.withUnsafeBufferPointer { input in
            packet.withUnsafeMutableBytes { output in
                Result { () throws(OpusError) in try encode(input, into: output) }
            }
        }
        Self.trim(&packet, to: result)
        _ = try result.get()
    }

    /// Encodes one frame into a new array. Convenient for tests and one-off use.
    public func encode(_ pcm: [Int16]) throws(OpusError) -> [UInt8] {
        var packet: [UInt8] = []
        try encode(pcm, into: &packet)
        return packet
    }

    // MARK: Helpers

    private func validatedFrameSize(sampleCount: Int) throws(OpusError) -> Int {
        guard sampleCount % channels == 0, Self.validFrameSizes.contains(sampleCount / channels) else {
            throw .invalidArgument(
                "\(sampleCount) samples is not one Opus frame of 2.5/5/10/20/40/60 ms for \(channels) channel(s)")
        }
        return sampleCount / channels
    }

    private func set(_ request: Int32, _ value: Int, _ name: String) throws(OpusError) {
        let status = lock.withLock { _ in
            agent_opus_encoder_set_int(encoder, request, opus_int32(clamping: value))
        }
        try OpusError.check(status, name)
    }

    private func get(_ request: Int32, _ name: String) throws(OpusError) -> Int {
        var value: opus_int32 = 0
        let status = lock.withLock { _ in agent_opus_encoder_get_int(encoder, request, &value) }
        try OpusError.check(status, name)
        return Int(value)
    }

    private static func growForEncoding(_ packet: inout [UInt8]) {
        if packet.count < maxPacketBytes {
            packet.append(contentsOf: repeatElement(0, count: maxPacketBytes - packet.count))
        }
    }

    private static func trim(_ packet: inout [UInt8], to result: Result<Int, OpusError>) {
        let length = (try? result.get()) ?? 0
        packet.removeLast(packet.count - length)
    }
}
