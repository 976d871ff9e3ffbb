/// What one publish run measured over its steady window, and whether a subscriber received it.
struct PublishResult: Sendable {
    /// The row's kind: av, audio, video (play) or vp8 (encode).
    let kind: String
    let streams: Int
    let ours: String
    let anchor: String
    let measurement: WindowMeter.Measurement
    let reception: PublishReception
    let oursNote: String?

    var oursFigures: WindowMeter.Figures { measurement.figures(ours) }
    var anchorFigures: WindowMeter.Figures { measurement.figures(anchor) }
    var recorderFigures: WindowMeter.Figures { measurement.figures(PublishScenario.recorderGroup) }
}
