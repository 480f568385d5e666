/// An operation that retries its own request inside one launch (the person answered a screen
/// once, so only the request goes out again) tells the run so, and the run's observers — its
/// journal, its progress lines — record each of those attempts as they record the attempts of
/// a step the scenario retries: the run's history then holds every attempt the diagram draws.
extension OpContext {
    /// Reports that attempt `attempt` of this launch's request failed with `error` and that the
    /// operation sends it again after `delay`: the observers get the attempt's failure (a retry
    /// follows) and the launch of attempt `attempt + 1`, with this launch's input, at the
    /// step's address. The step's failure, should the launch fail, counts these attempts too
    /// (``StepFailure/attempt``). Outside a scenario it does nothing.
    ///
    /// Call it only from an operation whose step the scenario does not retry itself, before the
    /// request goes out again; the launch's own finish then ends the last attempt reported.
    /// `duration` is how long the attempt took, if measured; `purity` is the operation's
    /// (``Purity/of(_:)``), which the journal records with the launch.
    public func reportRetry(
        of attempt: Int, after error: any Error, took duration: Duration?, retryingIn delay: Duration?,
        purity: Purity
    ) {
        // Counted whether or not anyone observes: the step's failure says how many attempts it took.
        if case .step(let run, _, _, let number)? = scope?.storage {
            run.begin(inner: attempt + 1, of: number, at: environment.scheduler.now)
        }
        guard let observer = environment.observer, let address = scope?.address else { return }
        let scenario = address.path.dropLast().last?.name ?? ""
        observer.scenario(
            ScenarioEvent(
                kind: .stepFailed(error, willRetry: true, delay: delay), scenario: scenario, address: address,
                attempt: attempt, duration: duration, value: nil, purity: purity))
        observer.scenario(
            ScenarioEvent(
                kind: .stepLaunched, scenario: scenario, address: address, attempt: attempt + 1, duration: nil,
                value: input, purity: purity))
    }
}
