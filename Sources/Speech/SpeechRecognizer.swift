/// A streaming speech recognizer: feed 16 kHz mono Int16 PCM (``SpeechAudio``) in chunks of any
/// size, and get partial and final ``SpeechResult``s back as return values.
///
/// Results are returned, not called back, so a track's worker thread can own the whole exchange:
/// it feeds a frame and handles what came out, with no second thread and no queue between them.
/// Implementations are `Sendable` (their state sits behind a lock) so a recognizer can be made
/// on one thread and handed to the worker; they are meant to be driven by one caller at a time.
///
/// An utterance ends when the recognizer itself decides (pocketsphinx's end-of-speech detector,
/// a command child's own final result) or when the caller says so with ``endUtterance()`` (its
/// own turn detector, a track that went silent). ``finish()`` ends the stream; a recognizer
/// refuses audio after it.
public protocol SpeechRecognizer: AnyObject, Sendable {
    /// Decodes `samples`, continuing the stream; returns results that became available.
    func feed(_ samples: [Int16]) throws(SpeechRecognizerError) -> [SpeechResult]
    /// Ends the current utterance now: returns its final result (none when nothing was heard).
    func endUtterance() throws(SpeechRecognizerError) -> [SpeechResult]
    /// Ends the stream and frees the engine (a command child exits). Idempotent: a second call
    /// returns nothing.
    func finish() throws(SpeechRecognizerError) -> [SpeechResult]
}
