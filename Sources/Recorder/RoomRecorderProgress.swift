/// A snapshot of a running recording, for the CLI's progress line and its `--json` summary.
public struct RoomRecorderProgress: Sendable, Equatable {
    /// Participants in the room now, and all stays recorded so far (a rejoin counts again).
    public var participantsPresent: Int
    public var participantsRecorded: Int
    /// Bytes in the recording's files, measured about once a second (the manifest timer).
    public var bytesWritten: Int64
    /// The furthest media time seen, in milliseconds from the recording's t=0.
    public var mediaMs: Int64
    /// Events the bounded queue refused, and events still waiting in it.
    public var eventsDropped: Int64
    public var eventsQueued: Int
    /// Since when (ms from t=0) no publisher has been in the room; nil while someone is. An
    /// empty room from the start counts from 0.
    public var emptySinceMs: Int64?
    /// The first output error (disk full, permissions), if any: the CLI exits 5.
    public var outputError: RoomRecorderError?

    public init(participantsPresent: Int = 0, participantsRecorded: Int = 0, bytesWritten: Int64 = 0, mediaMs: Int64 = 0,
                eventsDropped: Int64 = 0, eventsQueued: Int = 0, emptySinceMs: Int64? = nil, outputError: RoomRecorderError? = nil) {
        self.participantsPresent = participantsPresent
        self.participantsRecorded = participantsRecorded
        self.bytesWritten = bytesWritten
        self.mediaMs = mediaMs
        self.eventsDropped = eventsDropped
        self.eventsQueued = eventsQueued
        self.emptySinceMs = emptySinceMs
        self.outputError = outputError
    }
}
