import AgentdCore
import Recorder

extension RecordingRequest {
    /// ``prepareOutput()`` with the CLI's error: exit 5 before we join.
    func checkOutput() throws(CommandFailure) {
        do {
            try prepareOutput()
        } catch .notWritable(let path, let operation, let reason) {
            let error = RecordingDirectoryError.notWritable(path: path, operation: operation, reason: reason)
            throw CommandFailure(.outputFailed, "cannot write to \(directory.path): \(error)", hint: "choose another --out")
        } catch .cannotContinue(let reason) {
            throw CommandFailure(.outputFailed, reason.description, hint: Self.hint(reason))
        } catch {
            throw CommandFailure(.outputFailed, error.description, hint: "choose another --out or pass --overwrite")
        }
    }

    /// What to do about a directory `--continue` refused.
    static func hint(_ reason: RecordingContinuationError) -> String {
        switch reason {
        case .otherRoom: "continue it with its own --room, or choose another --out"
        default: "choose another --out, or leave out --continue"
        }
    }
}
