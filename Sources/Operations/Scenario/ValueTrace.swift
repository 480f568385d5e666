/// How a scenario's own computing shows in a run's diagram: a `map` or a conditional step's
/// `merge` builds the next step's input from values already in hand, launching nothing, so it is
/// drawn as a self-message on the scenario's lifeline (`signInAttempt → codeRequest`). A reader
/// then sees where each launch's input came from, and that it came from values passed along,
/// not from shared state.
enum ValueTrace {
    /// Records the self-message when tracing is on; only types are named, never values, so
    /// nothing secret can reach the label.
    static func computed(_ result: Any.Type, from sources: Any.Type..., trace: TraceScope?) {
        combined(result, from: { sources }, trace: trace)
    }

    /// Records the self-message of a parallel step's `combine`: the value the step was given
    /// and each branch's output, `order + price + stock → pricedOrder`. `sources` is asked only
    /// when tracing is on.
    static func combined(_ result: Any.Type, from sources: () -> [Any.Type], trace: TraceScope?) {
        guard let trace, trace.isEnabled else { return }
        let inputs = sources().map(TraceLabel.valueName(of:)).joined(separator: " + ")
        trace.message(to: trace.participant, "\(inputs) → \(TraceLabel.valueName(of: result))")
    }
}
