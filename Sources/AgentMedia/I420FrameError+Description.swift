/// How a bad I420 frame reads to a person.
extension I420FrameError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height): "\(width)x\(height) is not a usable frame size"
        case .strideTooSmall(let plane, let stride, let width): "the \(plane) plane's stride \(stride) is below its width \(width)"
        case .planeTooSmall(let plane, let needed, let got): "the \(plane) plane has \(got) bytes, \(needed) needed"
        case .regionOutside(let region, let width, let height): "region \(region) does not fit a \(width)x\(height) picture"
        case .drawingFailed(let why): "drawing failed: \(why)"
        }
    }
}
