/// Why an ``I420Frame`` could not be built from the given size and planes, or drawn into.
public enum I420FrameError: Error, Equatable, Sendable {
    case invalidDimensions(width: Int, height: Int)
    case strideTooSmall(plane: String, stride: Int, width: Int)
    case planeTooSmall(plane: String, needed: Int, got: Int)
    /// A drawing region (``I420Frame/Region``) outside the picture or on an odd origin.
    case regionOutside(region: String, width: Int, height: Int)
    /// libyuv refused a drawing call.
    case drawingFailed(String)
}
