import Glibc

/// Names the calling thread as Linux shows it (/proc/PID/task/TID/comm, `top -H`), so a thread
/// count or a CPU breakdown can tell the transport loops and lanes apart.
///
/// Not through Foundation: on Linux (Swift 6.3.1) a `Thread.name` set before `start()` never
/// reaches the kernel, so a new thread shows its creator's name (`oot.default-qos`, the tail of
/// a Dispatch queue's); set from the running thread it reaches the kernel only sometimes (it
/// races with `start()` recording the thread), and a name over 15 bytes is refused (ERANGE)
/// outright. The thread writes its own /proc/thread-self/comm instead, which is what glibc's
/// `pthread_setname_np` does for another thread (the Glibc module does not export that call).
public enum ThreadName {
    /// The longest thread name Linux keeps, in bytes (16 with the terminating NUL).
    public static let limit = 15

    /// `name` cut to ``limit`` bytes at a character boundary.
    public static func fitting(_ name: String) -> String {
        var cut = Substring(name)
        while cut.utf8.count > limit { cut = cut.dropLast() }
        return String(cut)
    }

    /// Names the calling thread `name` (cut to fit). Without /proc the thread keeps its name.
    public static func setCurrent(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(fitting(name).utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
