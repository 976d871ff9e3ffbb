/// The room composite's wiring into the recorder (room.webm, format composite): the
/// ``RoomCompositor`` gets joins, leaves, every frame and the mixer's blocks; the logic is in
/// Composite/.
extension RoomRecorder {
    /// Creates room.webm's compositor; a file that cannot be created is an output error.
    func startCompositor(_ settings: CompositeSettings) {
        compositor = RoomCompositor(path: directory.filePath(RoomCompositor.fileName), settings: settings, segments: segments,
                                    startMs: originMs, firstPart: partNumbers.first(for: RoomCompositor.fileName),
                                    reportError: { [weak self] reason in self?.noteOutputError(.file(reason)) })
    }

    /// Hands the mixer's blocks to the compositor, so the mix is computed once for mix.wav and
    /// room.webm (and for room.webm alone without the mix format).
    var compositeMixSink: ((_ block: [Int16], _ atSample: Int64) -> Void)? {
        guard let compositor else { return nil }
        return { block, sample in compositor.mix(block, atSample: sample) }
    }
}
