import AgentCore

extension AVCDecoderConfigurationRecord {
    /// Reads a record as a file stores it (a Matroska `V_MPEG4/ISO/AVC` CodecPrivate, an MP4
    /// `avcC` body), in the layout of ISO/IEC 14496-15 §5.3.3.1 above.
    ///
    /// Read leniently where writers differ and nothing depends on it: the reserved bits are not
    /// checked, and whatever follows the PPSs (the High profiles' chroma format and bit depth
    /// fields, which older writers leave out, and any SPS extensions) is skipped: the SPS says
    /// the same. The parameter sets are checked as
    /// ``init(sequenceParameterSets:pictureParameterSets:nalUnitLengthSize:)`` checks them.
    public init(parsing bytes: [UInt8]) throws(H264Error) {
        guard let version = bytes.first else { throw .missingConfigurationRecord }
        guard version == 1 else { throw .configurationVersion(version) }
        let (lengthSize, sequenceParameterSets, pictureParameterSets) = try Self.fields(of: bytes)
        try self.init(sequenceParameterSets: sequenceParameterSets, pictureParameterSets: pictureParameterSets,
                      nalUnitLengthSize: lengthSize)
    }

    private static func fields(of bytes: [UInt8]) throws(H264Error) -> (lengthSize: Int, sps: [[UInt8]], pps: [[UInt8]]) {
        do throws(ByteRangeError) {
            return try ByteReader.read(bytes) { (reader: inout ByteReader) throws(ByteRangeError) in
                // The version (checked), then profile, compatibility and level: the SPS's own.
                try reader.skip(4)
                let lengthSize = Int(try reader.readUInt8() & 0x03) + 1
                let spsCount = Int(try reader.readUInt8() & 0x1F)
                let sps = try parameterSets(spsCount, from: &reader)
                let ppsCount = Int(try reader.readUInt8())
                let pps = try parameterSets(ppsCount, from: &reader)
                return (lengthSize, sps, pps)
            }
        } catch {
            throw .configurationRecordTruncated(error)
        }
    }

    /// `count` parameter sets, each after its 16-bit length.
    private static func parameterSets(_ count: Int, from reader: inout ByteReader) throws(ByteRangeError) -> [[UInt8]] {
        var sets: [[UInt8]] = []
        for _ in 0..<count {
            let length = Int(try reader.readBigEndian(UInt16.self))
            sets.append([UInt8](try reader.readBytes(length)))
        }
        return sets
    }
}
