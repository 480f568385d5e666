import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns signals (Ctrl-C's SIGINT, a service manager's SIGTERM) into a handler call on a Dispatch
/// queue instead of the process's death, until ``stop()``, which puts back what each signal did
/// before — so a command run inside a longer-lived process, such as a test calling a program's
/// `main` in-process, does not leave the signal ignored.
///
/// One place for this because `run`/`rerun` (cancel and journal the run) and a program's own
/// long-running commands (opctl's `serve` stops its server) all need it, and the order of its
/// two steps matters: the default action is ignored before the Dispatch source exists, so no
/// signal in between kills the process.
public struct SignalTrap {
    private let sources: [any DispatchSourceSignal]
    private let previous: [(signal: Int32, action: (@convention(c) (Int32) -> Void)?)]

    /// Starts trapping.
    ///
    /// - Parameters:
    ///   - signals: The signals, e.g. `[SIGINT, SIGTERM]`.
    ///   - handler: Called with the signal's number, on a global queue, each time one arrives.
    public init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        var previous: [(signal: Int32, action: (@convention(c) (Int32) -> Void)?)] = []
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            previous.append((number, signal(number, SIG_IGN)))
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        self.previous = previous
    }

    /// Stops trapping and restores each signal's previous action.
    public func stop() {
        for source in sources { source.cancel() }
        for (number, action) in previous { signal(number, action) }
    }
}
