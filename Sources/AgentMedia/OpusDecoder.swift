import CAgentShims
import COpus
import Synchronization

/// Decodes Opus packets (RFC 6716) into 48 kHz PCM, and fills gaps left by lost packets.
///
/// A receiver has three ways to produce audio for a frame:
/// - the packet arrived: ``decode(_:)``;
/// - it was lost but the *next* one arrived and carries in-band FEC: ``decodeFEC(_:samplesPerChannel:)``
///   on the next packet recovers a low-rate copy of the lost frame (call it before decoding the next
///   packet normally);
/// - nothing usable arrived: ``conceal(samplesPerChannel:)`` extrapolates (packet loss concealment),
///   which keeps the timeline intact, as WAV recordings must (see ARCHITECTURE.md, Timing).
///
/// Output is interleaved Int16 (or Float in -1 ... 1) at 48 kHz, whatever rate the sender encoded.
public final class OpusDecoder: @unchecked Sendable {
    // @unchecked Sendable: the libopus decoder behind `decoder` is only touched inside
    // `lock.withLock`, so concurrent callers are serialized.

    public static let sampleRate = 48_000
    /// The longest packet Opus allows is 120 ms.
    public static let maxFrameSamplesPerChannel = 5760

    public let channels: Int
    private let decoder: OpaquePointer
    private let lock = Mutex(())

    /// - Parameter channels: 1 or 2; a stereo packet decoded as mono is downmixed and vice versa.
    public init(channels: Int = 1) throws(OpusError) {
        guard channels == 1 || channels == 2 else {
            throw .invalidArgument("channels must be 1 or 2, got \(channels)")
        }
        var status: Int32 = OPUS_OK
        let created = opus_decoder_create(opus_int32(Self.sampleRate), Int32(channels), &status)
        guard let decoder = created, status == OPUS_OK else {
            if let created { opus_decoder_destroy(created) }
            let code = status < 0 ? status : OPUS_ALLOC_FAIL
            throw .library(operation: "opus_decoder_create", code: code, message: OpusError.message(for: code))
        }
        self.decoder = decoder
        self.channels = channels
    }

    deinit {
        opus_decoder_destroy(decoder)
    }

    // MARK: Low-level, caller-owned buffers

    /// Decodes `packet` into `pcm` and returns the samples per channel written.
    ///
    /// - `packet == nil`: packet loss concealment for exactly `pcm.count / channels` samples per
    ///   channel (a multiple of 120, i.e. 2.5 ms).
    /// - `fec == true`: recovers the frame *before* `packet` from its in-band FEC data; `pcm` must
    ///   again be exactly the lost duration. Without FEC data libopus falls back to concealment.
    /// - otherwise `pcm` must hold at least the packet's duration (``maxFrameSamplesPerChannel``
    ///   times ``channels`` always does).
    public func decode(_ packet: UnsafeRawBufferPointer?, into pcm: UnsafeMutableBufferPointer<Int16>,
                       fec: Bool = false) throws(OpusError) -> Int {
        let (data, length, frameSize) = try validate(packet, outputCount: pcm.count)
        guard let output = pcm.baseAddress else { throw .invalidArgument("empty PCM buffer") }
        let status = lock.withLock { _ in
            opus_decode(decoder, data, length, output, frameSize, fec ? 1 : 0)
        }
        return Int(try OpusError.check(status, packet == nil ? "opus_decode (PLC)" : "opus_decode"))
    }

    /// Float variant of ``decode(_:into:fec:)-(_,UnsafeMutableBufferPointer<Int16>,_)``.
    public func decode(_ packet: UnsafeRawBufferPointer?, into pcm: UnsafeMutableBufferPointer<Float>,
                       fec: Bool = false) throws(OpusError) -> Int {
        let (data, length, frameSize) = try validate(packet, outputCount: pcm.count)
        guard let output = pcm.baseAddress else { throw .invalidArgument("empty PCM buffer") }
        let status = lock.withLock { _ in
            opus_decode_float(decoder, data, length, output, frameSize, fec ? 1 : 0)
        }
        return Int(try OpusError.check(status, packet == nil ? "opus_decode_float (PLC)" : "opus_decode_float"))
    }

    // MARK: Arrays

    /// Decodes one packet into a new array of interleaved samples.
    public func decode(_ packet: [UInt8]) throws(OpusError) -> [Int16] {
        var pcm: [Int16] = []
        try decode(packet, into: &pcm)
        return pcm
    }

    /// Decodes one packet into `pcm`, which ends up holding exactly the decoded samples. Its storage
    /// is reused from call to call.
    public func decode(_ packet: [UInt8], into pcm: inout [Int16]) throws(OpusError) {
        let capacity = Self.maxFrameSamplesPerChannel * channels
        if pcm.count < capacity { pcm.append(contentsOf: repeatElement(0, count: capacity - pcm.count)) }
        let result = packet.withUnsafeBytes { bytes in
            pcm.withUnsafeMutableBufferPointer { output in
                Result { () throws(OpusError) in try decode(bytes, into: output) }
            }
        }
        let samples = ((try? result.get()) ?? 0) * channels
        pcm.removeLast(pcm.count - samples)
        _ = try result.get()
    }

    /// Decodes one packet into Float samples in -1 ... 1.
    public func decodeFloat(_ packet: [UInt8]) throws(OpusError) -> [Float] {
        var pcm = [Float](repeating: 0, count: Self.maxFrameSamplesPerChannel * channels)
        let result = packet.withUnsafeBytes { bytes in
            pcm.withUnsafeMutableBufferPointer { output in
                Result { () throws(OpusError) in try decode(bytes, into: output) }
            }
        }
        let samples = try result.get() * channels
        pcm.removeLast(pcm.count - samples)
        return pcm
    }

    /// Recovers the lost frame that preceded `nextPacket` from `nextPacket`'s in-band FEC data.
    /// `samplesPerChannel` is the lost frame's duration (960 for 20 ms).
    public func decodeFEC(_ nextPacket: [UInt8], samplesPerChannel: Int) throws(OpusError) -> [Int16] {
        var pcm = try outputBuffer(samplesPerChannel: samplesPerChannel)
        let result = nextPacket.withUnsafeBytes { bytes in
            pcm.withUnsafeMutableBufferPointer { output in
                Result { () throws(OpusError) in try decode(bytes, into: output, fec: true) }
            }
        }
        _ = try result.get()
        return pcm
    }

    /// Packet loss concealment: `samplesPerChannel` samples per channel (a multiple of 120) that
    /// continue the signal plausibly, fading to silence over longer gaps.
    public func conceal(samplesPerChannel: Int) throws(OpusError) -> [Int16] {
        var pcm = try outputBuffer(samplesPerChannel: samplesPerChannel)
        let result = pcm.withUnsafeMutableBufferPointer { output in
            Result { () throws(OpusError) in try decode(nil, into: output) }
        }
        _ = try result.get()
        return pcm
    }

    /// Decodes `packet`, or conceals `lostSamplesPerChannel` samples when it is nil (lost).
    public func decode(_ packet: [UInt8]?, lostSamplesPerChannel: Int = 960) throws(OpusError) -> [Int16] {
        if let packet { try decode(packet) } else { try conceal(samplesPerChannel: lostSamplesPerChannel) }
    }

    /// Samples per channel of the last packet decoded (or concealed).
    public var lastPacketDuration: Int {
        var value: opus_int32 = 0
        let status = lock.withLock { _ in
            agent_opus_decoder_get_int(decoder, OPUS_GET_LAST_PACKET_DURATION_REQUEST, &value)
        }
        return status == OPUS_OK ? Int(value) : 0
    }

    /// Forgets all history, e.g. when the sender's SSRC changes.
    public func reset() throws(OpusError) {
        let status = lock.withLock { _ in agent_opus_decoder_reset(decoder) }
        try OpusError.check(status, "OPUS_RESET_STATE")
    }

    /// Samples per channel (at 48 kHz) that `packet` decodes to, read from its TOC byte
    /// (RFC 6716 §3.1) without decoding. Useful for jitter buffers and for sizing concealment.
    public static func samplesPerChannel(in packet: [UInt8]) throws(OpusError) -> Int {
        guard !packet.isEmpty else { throw .invalidArgument("empty packet") }
        let status = packet.withUnsafeBufferPointer { bytes in
            // Non-empty, so the base address exists.
            opus_packet_get_nb_samples(bytes.baseAddress!, opus_int32(clamping: bytes.count),
                                       opus_int32(sampleRate))
        }
        return Int(try OpusError.check(status, "opus_packet_get_nb_samples"))
    }

    // MARK: Helpers

    private func validate(_ packet: UnsafeRawBufferPointer?, outputCount: Int) throws(OpusError) -> (UnsafePointer<UInt8>?, opus_int32, Int32) {
        guard outputCount > 0, outputCount % channels == 0 else {
            throw .invalidArgument("PCM buffer of \(outputCount) samples does not fit \(channels) channel(s)")
        }
        let frameSize = Int32(clamping: outputCount / channels)
        guard let packet else { return (nil, 0, frameSize) }
        // libopus reads a zero-length packet as "lost"; make loss explicit (nil) instead.
        guard let base = packet.baseAddress, !packet.isEmpty else {
            throw .invalidArgument("empty packet; pass nil to conceal a lost packet")
        }
        return (base.assumingMemoryBound(to: UInt8.self), opus_int32(clamping: packet.count), frameSize)
    }

    private func outputBuffer(samplesPerChannel: Int) throws(OpusError) -> [Int16] {
        guard samplesPerChannel > 0, samplesPerChannel % 120 == 0,
              samplesPerChannel <= Self.maxFrameSamplesPerChannel
        else {
            throw .invalidArgument("\(samplesPerChannel) samples is not a multiple of 2.5 ms up to 120 ms")
        }
        return [Int16](repeating: 0, count: samplesPerChannel * channels)
    }
}
