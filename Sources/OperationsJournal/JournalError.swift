public import Foundation
public import Operations

/// Why a journal could not be written, read or resumed.
///
/// Every case says what went wrong in a sentence a user can act on (``description``), and names
/// the file concerned. Reading never surfaces a raw `DecodingError`: a file that is not a journal,
/// comes from another version or is damaged in the middle is one of the cases below.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not a journal at all: random bytes, another JSON file, an empty file.
    case notAJournal(URL, reason: String)
    /// The file is a journal written in a format version this build cannot read.
    case unsupportedVersion(URL, found: Int, supported: Int)
    /// A line other than the last one is not a valid journal event, so the events after it
    /// cannot be trusted. (A torn *last* line past the last sync is what a killed process leaves
    /// and is ignored.)
    case damaged(URL, line: Int, reason: String)
    /// The journal lost lines that it had: a line is missing from the middle, repeated or out of
    /// place, or the journal ends before the last line it had synced to disk. Unlike a damaged
    /// line, a lost one leaves no trace of what it recorded, so no resume goes past it (not
    /// even one told to relaunch steps in doubt): the run is refused, and `check` says why.
    case linesLost(URL, JournalLoss)
    /// The file or directory could not be opened, read, created or written.
    case io(URL, operation: String, reason: String)
    /// No run with this id exists in the run store.
    case unknownRun(RunID, directory: URL)
    /// A text that cannot be a run id (run ids name files, so only a safe alphabet is allowed).
    case invalidRunID(String)
    /// Another live process (or another journal in this one) is writing this run.
    case runInProgress(URL)
    /// The run was parked here (a screen, a wait, a poll) without its file lock, and when it went
    /// on the journal was no longer as this process left it: another process took the run
    /// meanwhile. This process stops the run without writing another line.
    case runTakenOver(URL)
    /// The run had already succeeded when a resume took its lock: another process finished it
    /// while the resume waited. Nothing was written or launched.
    case alreadySucceeded(URL)
    /// The run failed for good and undid every finished step that declares a compensation:
    /// it is over, and resuming it could only go past the undoing (confirm an order whose stock
    /// was released). `undone` names the undone steps, last undone last. Nothing was written or
    /// launched.
    case alreadyUndone(URL, undone: [String])
    /// The journal records no scenario shape (it was created by name only, or by a build from
    /// before shapes were recorded), so nothing can tell whether this build's scenario would
    /// replay it correctly; it still lists and shows.
    case missingShape(URL, scenario: String)
    /// The journal was written by a scenario of another shape than the one resuming it, and
    /// no step was launched.
    case shapeMismatch(URL, ShapeMismatch)
    /// A step with side effects the resumed run would reach could act twice: its last attempt is
    /// in doubt and the journal holds no key to repeat it with, or the journal is damaged where
    /// an attempt of it may have been recorded. Nothing was launched or written; the caller may
    /// resume anyway when it knows better (`relaunchingInDoubt`).
    case resumeRefused(URL, ResumeError)
    /// A recorded value exists but cannot be read as the type the step asks for now.
    case valueNotReadable(step: StepAddress, type: String, reason: String)
    /// The run's ``JournalSealer`` failed to seal a confidential value: the value was not
    /// written, in clear or at all, so the journal cannot stand for the event that carried it
    /// and the run must not go on as if it did. `reason` names the sealer's error by its type
    /// only — its description might quote what it was given.
    case sealingFailed(URL, type: String, reason: String)

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .notAJournal(let url, let reason):
            "\(url.path) is not a scenario journal: \(reason)"
        case .unsupportedVersion(let url, let found, let supported):
            "\(url.path) is a journal of format version \(found); this build reads version \(supported)"
        case .damaged(let url, let line, let reason):
            "\(url.path) is damaged at line \(line) (\(reason)); the events after it cannot be trusted"
        case .linesLost(let url, let loss):
            "\(url.path) has lost lines: \(loss)"
        case .io(let url, let operation, let reason):
            "cannot \(operation) \(url.path): \(reason)"
        case .unknownRun(let id, let directory):
            "no run \(id) in \(directory.path)"
        case .invalidRunID(let text):
            "\"\(text.prefix(64))\" is not a run id (expected something like 20250101-120000-000-1a2b3c4d)"
        case .runInProgress(let url):
            "the run in \(url.path) is still being written by another process"
        case .runTakenOver(let url):
            "the run in \(url.path) was taken over by another process while this one waited; "
                + "this process stopped it without writing more (see that process for how it went on)"
        case .alreadySucceeded(let url):
            "the run in \(url.path) has already succeeded; there is nothing to resume"
        case .alreadyUndone(let url, let undone):
            "the run in \(url.path) failed for good and was undone (\(undone.joined(separator: ", "))); "
                + "there is nothing to resume"
        case .missingShape(let url, let scenario):
            "\(url.path) records no shape of scenario \(scenario) (written by name only or by an older build), "
                + "so it cannot be checked against this build and is not resumed"
        case .shapeMismatch(let url, let mismatch):
            "\(url.path) was written by another version of the scenario and is not resumed: \(mismatch)"
        case .resumeRefused(let url, let refusal):
            "\(url.path) is not resumed: \(refusal)"
        case .valueNotReadable(let step, let type, let reason):
            "the recorded value of step \(step) cannot be read as \(type): \(reason)"
        case .sealingFailed(let url, let type, let reason):
            "cannot seal a confidential \(type) for \(url.path): \(reason); it was not written, in clear or sealed"
        }
    }
}
