import AgentMedia

extension I420Frame {
    /// The mean absolute difference of the luma samples of two pictures of the same size: how far
    /// a decoded picture is from the one encoded (0 for identical pictures; a few units for a
    /// well-encoded one).
    public func meanLumaDifference(from other: I420Frame) -> Double {
        guard width == other.width, height == other.height, width > 0, height > 0 else { return .infinity }
        var total = 0
        for row in 0..<height {
            for x in 0..<width { total += abs(Int(luma(x: x, y: row)) - Int(other.luma(x: x, y: row))) }
        }
        return Double(total) / Double(width * height)
    }
}
