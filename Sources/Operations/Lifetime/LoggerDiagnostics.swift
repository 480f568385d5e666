// The unified logging system (`os.Logger`) exists only on Apple platforms; elsewhere the
// default diagnostics stay on standard error (`StandardErrorDiagnostics`).
#if canImport(os)
    public import os

    /// Diagnostics in the unified log: what an app on a device gets by default, where standard
    /// error goes nowhere anyone reads (see ``OpEnvironment/defaultDiagnostics``).
    ///
    /// Each violation is one entry, at the level it deserves: a second finish is a `fault` (a
    /// bug in an operation), an abandoned launch and a second answer an `error`, a late finish
    /// after cancellation a `debug` entry (expected, and not persisted by default). The
    /// operation's name is logged as public: it is a type or scenario name, never a value. As
    /// ``StandardErrorDiagnostics`` does, a debug build stops at a second finish unless told not
    /// to.
    ///
    /// Read them in Console.app, or with `log stream --predicate 'subsystem == "…"'`.
    public struct LoggerDiagnostics: OpDiagnostics {
        private let logger: Logger
        private let assertsInDebug: Bool

        /// Creates diagnostics that log to `logger`; a second finish stops a debug build when
        /// `assertsInDebug`.
        public init(logger: Logger, assertsInDebug: Bool = true) {
            self.logger = logger
            self.assertsInDebug = assertsInDebug
        }

        /// Creates diagnostics that log under `subsystem` (usually the app's bundle identifier)
        /// and `category`.
        public init(subsystem: String = "Operations", category: String = "diagnostics", assertsInDebug: Bool = true) {
            self.init(logger: Logger(subsystem: subsystem, category: category), assertsInDebug: assertsInDebug)
        }

        /// Logs one diagnostic; called on the thread where it happened.
        public func report(_ diagnostic: OpDiagnostic) {
            let text = diagnostic.description
            switch diagnostic.kind {
            case .finishedTwice: logger.fault("\(text, privacy: .public)")
            case .abandoned, .answeredTwice: logger.error("\(text, privacy: .public)")
            case .lateFinishDropped: logger.debug("\(text, privacy: .public)")
            }
            if assertsInDebug && diagnostic.kind == .finishedTwice {
                assertionFailure(text)
            }
        }
    }
#endif
