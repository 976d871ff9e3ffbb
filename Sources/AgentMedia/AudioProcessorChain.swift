/// Several ``AudioProcessor``s run one after the other on each frame, in the order given; itself
/// a processor, so a chain can stand wherever one processor can (and hold chains).
///
/// An empty chain passes frames through untouched, which is how a track says "no processing"
/// where an engine default would otherwise apply (``AudioProcessorFactory/passThrough``).
public struct AudioProcessorChain: AudioProcessor {
    public let format: AudioProcessingFormat
    private var processors: [any AudioProcessor]

    /// - Throws: ``AudioProcessorError/formatMismatch(expected:got:)`` when a member was made for
    ///   another format than `format`.
    public init(format: AudioProcessingFormat, _ processors: [any AudioProcessor] = []) throws(AudioProcessorError) {
        for processor in processors where processor.format != format {
            throw .formatMismatch(expected: format, got: processor.format)
        }
        self.format = format
        self.processors = processors
    }

    public var count: Int { processors.count }

    /// Runs each member in turn. A member that throws stops the chain there; the frame keeps
    /// what the members before it did.
    public mutating func process(_ samples: inout [Int16]) throws(AudioProcessorError) {
        try checkFrameLength(of: samples)
        for index in processors.indices {
            try processors[index].process(&samples)
        }
    }
}
