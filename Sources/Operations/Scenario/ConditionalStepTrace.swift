/// How a conditional step shows in a run's diagram: when its condition holds, its launch is
/// drawn inside an `opt` frame labelled with the condition; when it does not, a note on the
/// scenario's lifeline says the step was skipped and why, so a reader sees every step of the
/// scenario, run or not.
enum ConditionalStepTrace {
    /// Opens the `opt` frame of a step whose condition held and returns the step's `onFinish`,
    /// closing the frame before the scenario hears of the result. Tracing off: `onFinish` as is.
    static func running<Output>(
        _ step: String, description: String?, trace: TraceScope?,
        onFinish: @escaping StepFinish<Output>
    ) -> StepFinish<Output> {
        guard let trace, trace.isEnabled else { return onFinish }
        trace.openFrame(.opt, description ?? "\(step)'s condition holds")
        return { result in
            trace.closeFrame()
            onFinish(result)
        }
    }

    /// Notes a skipped step on the scenario's lifeline.
    static func skipped(_ step: String, description: String?, trace: TraceScope?) {
        trace?.note("skipped \(step): \(description ?? "its condition") is false")
    }
}
