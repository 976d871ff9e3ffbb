/// How a recipe bot sends its data messages (behaviours, captions, the voice agent): a send right
/// after joining may find the data channel still opening, so a failed send is tried again every
/// 200 ms for `window`.
struct DataSender: Sendable {
    static let defaultWindow = Duration.seconds(5)

    let window: Duration
    private let send: @Sendable (String) async throws -> Void

    init(window: Duration = defaultWindow, send: @escaping @Sendable (String) async throws -> Void) {
        self.window = window
        self.send = send
    }

    /// Sends `text`; false when every try within the window failed (or the task was cancelled).
    func deliver(_ text: String) async -> Bool {
        let deadline = ContinuousClock.now + window
        while true {
            do {
                try await send(text)
                return true
            } catch {
                guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }
}
