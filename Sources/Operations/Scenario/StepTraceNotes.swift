/// The notes a scenario writes on its own lifeline, so that a run's diagram answers what a
/// reader of a flow asks and the arrows alone do not: what value a step was handed, whether it
/// may be launched again freely, which idempotency key stands for its attempt, and why the run
/// stopped where it did.
///
/// Every note is built from redacted forms only (``TraceLabel/describe(_:)``,
/// ``IdempotencyKey/redacted``); nothing here can print a secret in clear.
enum StepTraceNotes {
    /// The note before a step's attempt is launched, e.g.
    /// `phoneToken sim…vMcE` over `side effects, key idk…9f3a`.
    ///
    /// The value is named after its type, because the launch arrow shows it without a name and a
    /// reader cannot otherwise tell a phone token from an auth token.
    static func launching<Input>(_ input: Input, purity: Purity, key: IdempotencyKey?) -> String {
        let effect = key.map { "\(purity), key \($0.redacted)" } ?? purity.description
        guard let value = TraceLabel.describe(input) else { return effect }
        let name = TraceLabel.valueName(of: Input.self)
        let passed = value == name ? name : "\(name) \(value)"
        return "\(passed)\n\(effect)"
    }

    /// The note when a step's failure ends the scenario, e.g.
    /// `stopped: CodeOp failed after 3 attempts: wrong code, 0 left`.
    static func stopped(step: String, attempt: Int, error: any Error, note: String?) -> String {
        if error.isCancellation { return "stopped: cancelled during \(step)" }
        let attempts = attempt == 1 ? "" : " after \(attempt) attempts"
        // A nested scenario's failure reads `Verify: broken` (``StepFailure/traceLabel``).
        let reason = TraceLabel.describe(error) ?? "error"
        return "stopped: \(step) failed\(attempts): \(reason)" + (note.map { " (\($0))" } ?? "")
    }
}
