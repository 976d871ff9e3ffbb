/// How the room composite (`room.webm`) arranges the participants: `--composite-layout`.
public enum CompositeLayout: String, Sendable, CaseIterable, Codable {
    /// Every participant in an equal tile; the grid is laid out again as people join and leave.
    case grid
    /// The active speaker in one large tile, the others in a strip below.
    case speaker
}
