/// How long the waiting helpers of this module wait when a test names no timeout.
///
/// The timeout only bounds a hang: a test that passes never waits on it, so a long one costs
/// nothing. A short one does cost: on a loaded two-core CI machine, with explorations running on
/// threads of their own beside the suite, a thread can be held off for many seconds, and a
/// five-second default once failed a test whose operation was simply still waiting to be
/// scheduled. Every default of `launchAndWait`, `launchAndAwait`, `LaunchProbe`, `waitFor` and
/// `TestScheduler.waitForPendingWork` is this one value, so two waits in one test cannot give up
/// at different times.
public enum TestTimeout {
    /// Ten minutes: longer than a whole loaded run of the suite, so only a hang reaches it.
    ///
    /// Sixty seconds was not: with another build beside `swift test` on a two-core machine, the
    /// synchronous tests that wait for a child process held both threads of Swift's cooperative
    /// pool for minutes, and an async test whose flow was queued behind them gave up at sixty
    /// seconds with its state untouched. How long such a queue lasts depends on the machine,
    /// not on the code under test, so the bound is set past it.
    public static let standard: Duration = .seconds(600)
}
