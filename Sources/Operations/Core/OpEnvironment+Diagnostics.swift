extension OpEnvironment {
    /// The diagnostics an environment reports to when it is given none: where the platform's
    /// developers look.
    ///
    /// On Apple platforms, the unified log (`LoggerDiagnostics`, subsystem `Operations`): an app
    /// on a device has no standard error anyone reads. Elsewhere, one line on standard error
    /// (``StandardErrorDiagnostics``). Either way, a debug build stops at a second finish.
    public static var defaultDiagnostics: any OpDiagnostics {
        // `os.Logger` exists only on Apple platforms.
        #if canImport(os)
            LoggerDiagnostics()
        #else
            StandardErrorDiagnostics()
        #endif
    }
}
