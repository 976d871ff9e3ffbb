import Agent

extension FuzzTarget {
    /// H.264 access units in Annex B form (ITU-T H.264 Annex B) as the recorder gets them: NAL
    /// splitting, SPS parsing (exp-Golomb, scaling lists, cropping), the configuration record
    /// (ISO/IEC 14496-15 §5.3.3.1) and length-prefixed samples. The input is one access unit,
    /// then each of its NAL units is fed to a converter as an access unit of its own.
    public static let h264ParameterSets = FuzzTarget(
        name: "h264-parameter-sets",
        summary: "AnnexBScanner, H264AccessUnit, H264SequenceParameterSet, AVCDecoderConfigurationRecord, H264SampleConverter",
        maxInputLength: 4096
    ) { buffer in
        let bytes = [UInt8](buffer)
        let ranges = AnnexBScanner.nalUnits(in: bytes)
        for range in ranges {
            FuzzCheck.expect(!range.isEmpty && range.upperBound <= bytes.count && bytes[range.upperBound - 1] != 0, "NAL unit \(range) of \(bytes.count) bytes")
        }
        for unit in AnnexBScanner.nalUnitBytes(in: bytes) where H264NALUnitType.bits(of: unit.first ?? 0) == 7 {
            if let sps = try? H264SequenceParameterSet(nalUnit: unit) {
                FuzzCheck.expect((1...16_384).contains(sps.width) && (1...16_384).contains(sps.height), "SPS size \(sps.width)x\(sps.height)")
            }
        }
        guard let accessUnit = try? H264AccessUnit(annexB: bytes) else { return }
        let sample = accessUnit.sample()
        let expected = accessUnit.nalUnitRanges.reduce(0) { $0 + 4 + $1.count }
        FuzzCheck.expect(sample.count == expected, "sample of \(sample.count) bytes, \(expected) expected")
        if let record = try? accessUnit.configurationRecord() {
            let recordBytes = record.bytes
            FuzzCheck.expect(recordBytes.count > 8 && recordBytes[0] == 1 && recordBytes[5] == 0xE1, "record \(recordBytes.prefix(8))")
            _ = accessUnit.sample(insertingParameterSetsFrom: record)
        }
        var converter = H264SampleConverter()
        for unit in AnnexBScanner.nalUnitBytes(in: bytes) {
            _ = try? converter.convert(AnnexBScanner.startCode + unit)
        }
    }
}
