/// Turns a receiver's H.264 access units (Annex B, one per frame, in decode order) into
/// Matroska/MP4 samples, and a stored track's samples back into Annex B access units for a
/// sender, keeping the parameter sets the stream sent last.
///
/// A sender may send SPS and PPS once, or before each IDR, and sends new ones when it changes
/// size (ISO/IEC 14496-15 §5.3.2: parameter sets in samples are allowed). The latest complete
/// pair is ``parameterSets``; an IDR that comes without them gets them put in front (see
/// ``H264AccessUnit/sample(insertingParameterSetsFrom:)``), so each keyframe in the file decodes
/// on its own even when the sender sent them once. An SPS alone keeps the PPSs it had and a
/// PPS alone keeps the SPS: a sender may resend either.
///
/// The container's CodecPrivate is whatever set the caller took when it made the track; a
/// change after that is reported by ``Sample/parameterSetsChanged`` (the size it gives may
/// differ: a decoder follows the in-band sets, ffmpeg does).
///
/// The other way (``accessUnit(fromSample:)``), a track's record (CodecPrivate,
/// ``init(configurationRecord:)``) gives the samples' NAL unit length size and the first
/// parameter sets, usually the only ones: a file made with a global header has none in band.
/// Each IDR without its own gets them in front, so a receiver can start at any keyframe; sets
/// that do come in band replace them from there on, as above.
public struct H264SampleConverter: Sendable {
    public struct Sample: Equatable, Sendable {
        /// 4-byte length-prefixed NAL units.
        public var bytes: [UInt8]
        public var isIDR: Bool
        /// The access unit brought parameter sets that differ from the ones before it (not set
        /// for the first ones).
        public var parameterSetsChanged: Bool
    }

    /// The stream's latest SPS and PPSs, once it has sent both.
    public private(set) var parameterSets: AVCDecoderConfigurationRecord?
    private var pendingSequenceParameterSet: [UInt8]?
    private var pendingPictureParameterSets: [[UInt8]] = []

    /// The bytes of each NAL unit length in the samples ``accessUnit(fromSample:)`` reads (the
    /// record's), and in the ones ``convert(_:)`` writes (4).
    public let sampleLengthSize: Int

    /// For a receiver's stream, which brings its parameter sets in band.
    public init() {
        sampleLengthSize = AVCDecoderConfigurationRecord.lengthSize
    }

    /// For a stored track, starting from its configuration record.
    public init(configurationRecord: AVCDecoderConfigurationRecord) {
        parameterSets = configurationRecord
        sampleLengthSize = configurationRecord.nalUnitLengthSize
    }

    /// Reads one sample of a stored track and returns it as an Annex B access unit, the
    /// parameter sets put in front when it is an IDR without them. Throws for a malformed sample
    /// (see ``H264AccessUnit/init(sample:lengthSize:)``) and for in-band parameter sets that
    /// cannot be read.
    public mutating func accessUnit(fromSample sample: [UInt8]) throws(H264Error) -> H264AccessUnit {
        let unit = try H264AccessUnit(sample: sample, lengthSize: sampleLengthSize)
        _ = try update(from: unit)
        return try unit.insertingParameterSets(from: parameterSets)
    }

    /// Reads one access unit and returns its sample. Throws for bytes that hold no NAL unit and
    /// for parameter sets that cannot be read (the last good ones stay).
    public mutating func convert(_ annexB: [UInt8]) throws(H264Error) -> Sample {
        let unit = try H264AccessUnit(annexB: annexB)
        let changed = try update(from: unit)
        return Sample(bytes: unit.sample(insertingParameterSetsFrom: parameterSets), isIDR: unit.isIDR,
                      parameterSetsChanged: changed)
    }

    /// Takes the access unit's parameter sets; returns whether complete ones changed.
    private mutating func update(from unit: H264AccessUnit) throws(H264Error) -> Bool {
        let sps = unit.sequenceParameterSet.map(Array.init)
        let pps = unit.pictureParameterSets.map(Array.init)
        guard sps != nil || !pps.isEmpty else { return false }
        let newSPS = sps.map { [$0] } ?? parameterSets?.sequenceParameterSets ?? pendingSequenceParameterSet.map { [$0] }
        let newPPS = pps.isEmpty ? (parameterSets?.pictureParameterSets ?? pendingPictureParameterSets) : pps
        guard let newSPS, !newPPS.isEmpty else {
            pendingSequenceParameterSet = newSPS?.first
            pendingPictureParameterSets = newPPS
            return false
        }
        let record = try AVCDecoderConfigurationRecord(sequenceParameterSets: newSPS, pictureParameterSets: newPPS,
                                                       nalUnitLengthSize: sampleLengthSize)
        let changed = parameterSets.map { $0 != record } ?? false
        parameterSets = record
        pendingSequenceParameterSet = nil
        pendingPictureParameterSets = []
        return changed
    }
}
