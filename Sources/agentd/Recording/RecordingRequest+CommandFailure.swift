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
        } catch {
            throw CommandFailure(.outputFailed, error.description, hint: "choose another --out or pass --overwrite")
        }
    }
}
