import Operations
public import OperationsJournal

/// An input a step asks for that a run's journal does not keep (a code sent by SMS, a decision a
/// person makes), and the `rerun` option that supplies it: declared once by a program
/// (``RunnerConfiguration/rerunInputs``), so the hint a run ends with, `show`, `runs --json` and
/// `rerun`'s check before it launches anything all ask for the same words.
///
/// A rerun needs the input when the step has not got past its screen — it did not succeed, was
/// not replayed and was not skipped — and ``isNeeded`` says the journal does not stand in for
/// it (a phone number the run recorded, a decision its settings kept).
///
/// ```swift
/// RerunInput(step: "CodeOp", option: codeOption, alternatives: [codeStdinOption])
/// ```
public struct RerunInput: Sendable {
    /// The name of the step whose launch needs the input.
    public var step: String
    /// The option that supplies it, as the command declares it; a hint shows its synopsis
    /// (`--code CODE`).
    public var option: CommandOption
    /// Other options that supply it too (`--code-stdin`).
    public var alternatives: [CommandOption]
    /// Whether the run needs it although its step is still to run: `false` when the journal
    /// stands in for it. Asked only when the step has not got past its screen.
    public var isNeeded: @Sendable (_ record: JournalRecord) -> Bool

    /// Declares an input, each part as its property says; ``isNeeded`` says yes by default.
    public init(
        step: String, option: CommandOption, alternatives: [CommandOption] = [],
        isNeeded: @escaping @Sendable (_ record: JournalRecord) -> Bool = { _ in true }
    ) {
        self.step = step
        self.option = option
        self.alternatives = alternatives
        self.isNeeded = isNeeded
    }

    /// The words a hint shows: `--code CODE`, `--accept-terms`.
    public var words: String { option.synopsis }

    /// The inputs of `declared` a rerun of `record` needs, in declaration order: those whose
    /// step the run has not got past. It got past a step when every step of that name it reached
    /// succeeded, was replayed or was skipped, so a rerun will not launch it again; a step the run
    /// never reached is still to run, and one its shape does not have is never launched.
    static func needed(by record: JournalRecord, of declared: [RerunInput]) -> [RerunInput] {
        declared.filter { input in
            if let shape = record.shape, !shape.hasStep(named: input.step) { return false }
            let reached = record.steps.filter { $0.name == input.step && !$0.address.isCompensation }
            let past =
                !reached.isEmpty && reached.allSatisfy { [.succeeded, .replayed, .skipped].contains($0.outcome) }
            return !past && input.isNeeded(record)
        }
    }
}

extension ScenarioShape {
    /// Whether a step called `name` is in the scenario, at any depth.
    fileprivate func hasStep(named name: String) -> Bool {
        steps.contains { $0.name == name || $0.nested?.hasStep(named: name) == true }
    }
}
