/// How long the waiting helpers of this module wait when a test names no timeout.
///
/// The timeout only bounds a hang: a test that passes never waits on it, so a long one costs
/// nothing, while a short one fails tests whose work a loaded machine merely held off. Every
/// default of `launchAndWait`, `launchAndAwait`, `LaunchProbe`, `waitFor` and
/// `TestScheduler.waitForPendingWork` is this one value, so two waits in one test cannot give up
/// at different times.
public enum TestTimeout {
    /// Ten minutes: longer than a whole loaded run of the suite, so only a hang reaches it. How
    /// long a two-core machine building beside `swift test` holds a test's flow off depends on
    /// the machine, not on the code under test (five seconds, then sixty, both gave up on flows
    /// that were only queued), so the bound is set past it.
    public static let standard: Duration = .seconds(600)
}
