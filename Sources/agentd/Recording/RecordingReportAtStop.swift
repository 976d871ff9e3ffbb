import Dispatch
import Recorder
import RecordingReport

/// Writes a finished recording's report.json and report.html from its final manifest. It reads
/// every WAV and WebM once, seconds for a long recording, so it runs on a utility queue rather
/// than holding one of the few cooperative threads the daemon's other jobs share. A report that
/// cannot be written is said (logged) and never fails the recording: its files are final already.
enum RecordingReportAtStop {
    static func write(_ manifest: RecordingManifest, in directory: String, say: @escaping @Sendable (String) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global(qos: .utility).async {
                let document = RecordingReportBuilder(directory: directory).build(manifest: manifest)
                do {
                    try RecordingReportWriter.write(document, to: directory)
                } catch {
                    say("recording report not written: \(error)")
                }
                continuation.resume()
            }
        }
    }
}
