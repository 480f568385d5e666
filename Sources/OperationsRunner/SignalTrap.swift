import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns signals (Ctrl-C's SIGINT, a service manager's SIGTERM) into a handler call on a Dispatch
/// queue instead of the process's death, until ``stop()``, which puts back what each signal did
/// before — so a command run inside a longer-lived process, such as a test calling a program's
/// `main` in-process, does not leave the signal trapped.
///
/// One place for this because `run`/`rerun` (cancel and journal the run) and a program's own
/// long-running commands (opctl's `serve` stops its server) all need it, and because no signal
/// may be lost on the way in. A Dispatch signal source alone loses one: it starts listening some
/// time after `resume()` returns, on Dispatch's own thread, and a signal in between is either
/// fatal (default action) or dropped (ignored) — a server that printed "Ctrl-C to stop" and then
/// ignored the Ctrl-C. So the handler installed here is a C function that writes the signal's
/// number to a pipe, which keeps it until a Dispatch source reads it: from the moment the
/// initialiser's `sigaction` returns, every signal reaches `handler`.
///
/// The signals are also unblocked on the calling thread while trapped: a process spawned from a
/// Dispatch worker thread (which blocks every signal) inherits that mask, and a blocked signal
/// never reaches a handler; ``stop()`` blocks again what was blocked.
public struct SignalTrap {
    private let id: UInt64
    private let previous: [(signal: Int32, action: sigaction)]
    private let thread = pthread_self()
    private var previousMask = sigset_t()

    /// Starts trapping `signals` (`[SIGINT, SIGTERM]`): `handler` is called with the signal's
    /// number, on a global queue, each time one arrives.
    public init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        id = SignalPipe.registrations.withLock { state in
            state.nextID += 1
            state.list.append(SignalPipe.Registration(id: state.nextID, signals: signals, handler: handler))
            return state.nextID
        }
        var previous: [(signal: Int32, action: sigaction)] = []
        // Without a pipe (no descriptor left) nothing is installed: each signal keeps its action
        // rather than being swallowed by a handler that cannot pass it on.
        for number in signals where SignalPipe.started {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = SignalPipe.forward
            #else
                action.__sigaction_u.__sa_handler = SignalPipe.forward
            #endif
            // Restarted, as `signal` installs handlers: a blocking read on another thread (a
            // prompt) is not cut short by the signal, its handler decides what happens.
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(number, &action, &old)
            previous.append((number, old))
        }
        self.previous = previous
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, &previousMask)
    }

    /// Stops trapping and restores each signal's previous action; a signal already on its way
    /// to the handler is dropped.
    public func stop() {
        if pthread_equal(thread, pthread_self()) != 0 {
            var mask = previousMask
            pthread_sigmask(SIG_SETMASK, &mask, nil)
        }
        for (number, action) in previous.reversed() {
            var restored = action
            sigaction(number, &restored, nil)
        }
        SignalPipe.registrations.withLock { state in state.list.removeAll { $0.id == id } }
    }
}

/// The process's one signal pipe: the C handler writes a signal's number to it, a Dispatch source
/// reads it and calls the newest ``SignalTrap`` trapping that signal. Created once and never
/// closed, so a handler running on another thread while a trap stops can never write into a
/// closed descriptor whose number has been reused.
private enum SignalPipe {
    /// One trap's signals and handler.
    struct Registration {
        var id: UInt64
        var signals: [Int32]
        var handler: @Sendable (Int32) -> Void
    }

    /// The pipe's write end, or -1 before ``start()``; read by the handler, so an atomic.
    static let writeEnd = Atomic<Int32>(-1)
    /// The traps in the order they started, and the next trap's id.
    static let registrations = Mutex<(list: [Registration], nextID: UInt64)>(([], 0))
    /// The source reading the pipe, kept for the process's life as the pipe is (a source no one
    /// holds is released, and reads nothing more). Set once, inside ``started``'s initialiser;
    /// the signal handler never touches it, so a lock is safe here.
    static let reader = Mutex<(any DispatchSourceRead)?>(nil)
    /// Creates the pipe and its reader on first use.
    static let started: Bool = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let readEnd = ends[0]
        reader.withLock { reader in
            let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
            source.setEventHandler { deliver(from: readEnd) }
            source.resume()
            reader = source
        }
        writeEnd.store(ends[1], ordering: .releasing)
        return true
    }()

    /// The C signal handler: only async-signal-safe calls, errno left as it was.
    static let forward: @convention(c) (Int32) -> Void = { number in
        let fd = writeEnd.load(ordering: .acquiring)
        guard fd >= 0 else { return }
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(fd, &byte, 1)  // a full pipe already holds signals for the reader
        errno = saved
    }

    /// Reads every signal number waiting in the pipe and hands each to the newest trap of it.
    private static func deliver(from fd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for byte in bytes[0..<count] {
                let number = Int32(byte)
                let handler = registrations.withLock { state in
                    state.list.last { $0.signals.contains(number) }?.handler
                }
                handler?(number)
            }
        }
    }
}
