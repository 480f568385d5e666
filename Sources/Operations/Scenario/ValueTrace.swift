/// A scenario's own computing (a `map`, a `merge`) drawn as a self-message on its lifeline,
/// `signInAttempt → codeRequest`: a reader sees each input came from values passed along.
enum ValueTrace {
    /// Records the self-message when tracing is on, e.g. `order + price + stock → pricedOrder`;
    /// only types are named, never values, so nothing secret can reach the label.
    static func computed(_ result: Any.Type, from sources: () -> [Any.Type], trace: TraceScope?) {
        guard let trace, trace.isEnabled else { return }
        let inputs = sources().map(TraceLabel.valueName(of:)).joined(separator: " + ")
        trace.message(to: trace.participant, "\(inputs) → \(TraceLabel.valueName(of: result))")
    }
}
