/// Why an ``I420Frame`` could not be built from the given size and planes.
public enum I420FrameError: Error, Equatable, Sendable {
    case invalidDimensions(width: Int, height: Int)
    case strideTooSmall(plane: String, stride: Int, width: Int)
    case planeTooSmall(plane: String, needed: Int, got: Int)
}
