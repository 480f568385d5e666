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
    /// Sixty seconds: under Thread Sanitizer on a loaded two-core machine, a main-actor test
    /// once waited more than thirty for its first step.
    public static let standard: Duration = .seconds(60)
}
