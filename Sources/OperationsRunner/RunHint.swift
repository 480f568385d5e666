import Foundation
import Operations
public import OperationsJournal

/// How to go on with a run that did not succeed, read from its journal alone: the one answer
/// the line a run ends with, `show`, `show --json`, `runs --json` and `run --json` give, so they
/// cannot disagree.
///
/// A run a rerun can finish gets the rerun command with the inputs its journal does not keep and
/// its rerun will ask for (``RerunInput``), given where it stopped, and only those. A run a rerun
/// cannot help (undone, or an ending the program declares final,
/// ``RunnerConfiguration/rerunCannotHelp``) gets what to do instead.
public struct RunHint: Sendable, Equatable {
    /// The command that goes on with the run: `opctl rerun ID --code CODE`; `nil` when a rerun
    /// cannot help.
    public var rerun: String?
    /// What to do instead when a rerun cannot help; `nil` otherwise.
    public var instead: String?

    /// The line `show` and the end of a run print: `To resume: COMMAND`, or what to do instead.
    public var line: String? {
        rerun.map { "To resume: \($0)" } ?? instead
    }

    /// The hint for a run, or `nil` for one that succeeded or is still running.
    ///
    /// - Parameters:
    ///   - record: The run's journal.
    ///   - program: The program's name, the start of the command.
    ///   - inputs: The inputs its steps ask for (``RunnerConfiguration/rerunInputs``).
    ///   - cannotHelp: The program's endings a rerun cannot help
    ///     (``RunnerConfiguration/rerunCannotHelp``), each ending with the command to run
    ///     instead.
    ///   - stateDirectoryOption: The `--state-dir` given, repeated in every command.
    ///   - sealer: The program's sealer, with which a rerun would open the run's sealed values.
    public static func of(
        _ record: JournalRecord, program: String, inputs: [RerunInput],
        cannotHelp: @Sendable (JournalRecord) -> String? = { _ in nil }, stateDirectoryOption: String?,
        sealer: (any JournalSealer)? = nil
    ) -> RunHint? {
        guard record.status != .running,
            let basis = Basis(record, inputs: inputs, cannotHelp: cannotHelp, sealer: sealer)
        else { return nil }
        return RunHint(basis, program: program, runID: record.runID, stateDirectoryOption: stateDirectoryOption)
    }

    /// What a run's hint rests on: all of it but the program's name, the run's id and the
    /// `--state-dir` given. A listing keeps it in the run index (``RunSummary/listingNote``,
    /// ``note``), so `runs --json` gives a finished run's hint without reading its journal.
    enum Basis: Equatable {
        /// A rerun goes on, given these inputs' words.
        case rerun(inputs: [String])
        /// A plain rerun would refuse a step in doubt: the rerun told it did not take effect.
        case relaunchInDoubt(inputs: [String])
        /// The run undid these steps: nothing is left to rerun.
        case undone(String)
        /// What to do instead, as the program says it (``RunnerConfiguration/rerunCannotHelp``).
        case instead(String)

        /// The basis of a run's hint; `nil` for a run that succeeded.
        init?(
            _ record: JournalRecord, inputs: [RerunInput], cannotHelp: @Sendable (JournalRecord) -> String?,
            sealer: (any JournalSealer)?
        ) {
            guard record.status != .succeeded else { return nil }
            if record.isUndone {
                self = .undone(record.undoneSteps.map(\.name).joined(separator: ", "))
            } else if let instead = cannotHelp(record) {
                self = .instead(instead)
            } else {
                let words = RerunInput.needed(by: record, of: inputs).map(\.words)
                // Whether a plain rerun would refuse the run (``JournalError/resumeRefused(_:_:)``):
                // a step with side effects in doubt that it cannot repeat under its key, asked only
                // of runs with such a step in doubt, the one case it can be so.
                var refused = false
                if let shape = record.shape, record.steps.contains(where: { $0.isInDoubt && $0.purity == .sideEffects })
                {
                    do throws(JournalError) {
                        try record.checkResumable(by: shape, sealer: sealer)
                    } catch {
                        if case .resumeRefused = error { refused = true }
                    }
                }
                self = refused ? .relaunchInDoubt(inputs: words) : .rerun(inputs: words)
            }
        }

        /// The basis as the index keeps it: its kind, then its words or text, one a line.
        var note: String {
            switch self {
            case .rerun(let words): (["rerun"] + words).joined(separator: "\n")
            case .relaunchInDoubt(let words): (["relaunch-in-doubt"] + words).joined(separator: "\n")
            case .undone(let names): "undone\n" + names
            case .instead(let text): "instead\n" + text
            }
        }

        /// The basis a ``note`` keeps; `nil` for a note that is not one.
        init?(note: String) {
            let lines = note.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let rest = Array(lines.dropFirst())
            switch lines.first {
            case "rerun": self = .rerun(inputs: rest)
            case "relaunch-in-doubt": self = .relaunchInDoubt(inputs: rest)
            case "undone": self = .undone(rest.joined(separator: "\n"))
            case "instead": self = .instead(rest.joined(separator: "\n"))
            default: return nil
            }
        }
    }

    /// The hint `basis` gives run `runID` of `program`, with the `--state-dir` given.
    init(_ basis: Basis, program: String, runID: RunID, stateDirectoryOption: String?) {
        let directory = Self.stateDirectoryWords(stateDirectoryOption)
        switch basis {
        case .undone(let names):
            self.init(rerun: nil, instead: "Undone: \(names). Nothing is left to rerun.")
        // The new run that goes on instead must reach the same state directory as the rerun would.
        case .instead(let text):
            self.init(rerun: nil, instead: text + directory)
        case .rerun(let words):
            self.init(rerun: ([program, "rerun", runID.description] + words).joined(separator: " ") + directory)
        case .relaunchInDoubt(let words):
            let rerun = ([program, "rerun", runID.description] + words).joined(separator: " ") + directory
            self.init(rerun: nil, instead: Self.relaunchInDoubt(rerun))
        }
    }

    private init(rerun: String?, instead: String? = nil) {
        self.rerun = rerun
        self.instead = instead
    }

    /// What a person who knows the step in doubt did not act can run: the rerun told so.
    static func relaunchInDoubt(_ rerun: String) -> String {
        "If you know it did not take effect: \(rerun) --relaunch-in-doubt"
    }

    /// `PROGRAM rerun ID` with the words of the inputs the rerun needs and the state directory.
    static func command(
        _ record: JournalRecord, program: String, inputs: [RerunInput], stateDirectoryOption: String?
    ) -> String {
        RunHint(
            .rerun(inputs: RerunInput.needed(by: record, of: inputs).map(\.words)), program: program,
            runID: record.runID, stateDirectoryOption: stateDirectoryOption
        ).rerun ?? ""
    }

    /// ` --state-dir DIR` when one was given, else nothing: what every command a hint suggests
    /// carries so that it reaches the run's state directory (and the backend's state kept there).
    public static func stateDirectoryWords(_ stateDirectoryOption: String?) -> String {
        stateDirectoryOption.map { " --state-dir \(shellQuoted($0))" } ?? ""
    }

    /// `text` as one shell word: as it is when it needs no quoting, else in single quotes.
    public static func shellQuoted(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) }
            ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
