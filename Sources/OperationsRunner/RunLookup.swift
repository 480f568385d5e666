import Operations
import OperationsJournal

/// Finding runs by the id a user typed. An id that names no run is an input error (exit 2) whose
/// hint says where the ids are.
enum RunLookup {
    /// The id in `text`, as the user typed it; `program` is named in the hint.
    ///
    /// - Throws: ``UsageError`` when `text` is not a run id.
    static func id(_ text: String, program: String) throws -> RunID {
        guard let id = try? RunID(validating: text) else { throw unknown(text, program: program) }
        return id
    }

    /// The journal of run `id`; `toResume` reads it as a resume does, damaged lines skipped and
    /// listed (`RunStore/loadSkippingDamage(_:)`): what `rerun` goes on from.
    ///
    /// - Throws: ``UsageError`` when there is no such run; ``CLIError`` when it cannot be read
    ///   (to resume, in the sentence `check` gives for it, `ResumeCheck/reason(for:)`).
    static func record(_ id: RunID, in store: RunStore, program: String, toResume: Bool = false) throws
        -> JournalRecord
    {
        do {
            return try toResume ? store.loadSkippingDamage(id) : store.load(id)
        } catch {
            if case .unknownRun = error { throw unknown(id.description, program: program) }
            if toResume { throw CLIError.message("cannot resume run \(id): \(ResumeCheck.reason(for: error))") }
            throw CLIError.message("run \(id) cannot be read: \(error)")
        }
    }

    private static func unknown(_ text: String, program: String) -> UsageError {
        UsageError("there is no run '\(ParsedArguments.clip(text))'", hint: "See '\(program) runs' for the run ids.")
    }
}
