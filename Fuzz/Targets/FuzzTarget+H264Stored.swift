import Agent

extension FuzzTarget {
    /// H.264 as a Matroska or MP4 file stores it, the way `agentd play` reads it: a configuration
    /// record (ISO/IEC 14496-15 §5.3.3.1, the track's CodecPrivate) and length-prefixed samples
    /// turned back into Annex B access units. The input is a 16-bit record length, the record,
    /// then samples, each after a 16-bit length. Every sample is also read alone at each NAL unit
    /// length size the record may declare.
    public static let h264Stored = FuzzTarget(
        name: "h264-stored",
        summary: "AVCDecoderConfigurationRecord(parsing:), H264AccessUnit(sample:lengthSize:), H264SampleConverter(configurationRecord:)",
        maxInputLength: 4096
    ) { buffer in
        var input = FuzzInput(buffer)
        let recordBytes = input.take(Int(input.uint16()))
        var converter: H264SampleConverter?
        if let record = try? AVCDecoderConfigurationRecord(parsing: recordBytes) {
            FuzzCheck.expect(!record.sequenceParameterSets.isEmpty && !record.pictureParameterSets.isEmpty,
                             "a record without parameter sets")
            FuzzCheck.expect(AVCDecoderConfigurationRecord.lengthSizes.contains(record.nalUnitLengthSize),
                             "NAL unit length size \(record.nalUnitLengthSize)")
            // What we read, we write back and read again to the same record.
            let again = try? AVCDecoderConfigurationRecord(parsing: record.bytes)
            FuzzCheck.expect(again?.sequenceParameterSets == record.sequenceParameterSets
                             && again?.pictureParameterSets == record.pictureParameterSets,
                             "the record does not survive its own bytes")
            converter = H264SampleConverter(configurationRecord: record)
        }
        while !input.isEmpty {
            let sample = input.take(Int(input.uint16()))
            for lengthSize in AVCDecoderConfigurationRecord.lengthSizes.sorted() {
                guard let unit = try? H264AccessUnit(sample: sample, lengthSize: lengthSize) else { continue }
                let framed = unit.nalUnitRanges.reduce(0) { $0 + AnnexBScanner.startCode.count + $1.count }
                FuzzCheck.expect(unit.annexB.count == framed && !unit.nalUnitRanges.isEmpty,
                                 "\(unit.annexB.count) Annex B bytes for \(framed) framed")
                FuzzCheck.expect(unit.nalUnitRanges.allSatisfy { $0.upperBound <= unit.annexB.count },
                                 "a NAL unit range past the access unit")
            }
            if let unit = try? converter?.accessUnit(fromSample: sample) {
                FuzzCheck.expect(!unit.nalUnitRanges.isEmpty, "an access unit without NAL units")
            }
        }
    }
}
