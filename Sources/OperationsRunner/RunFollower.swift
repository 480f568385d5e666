import Dispatch
import Foundation
import Operations
import OperationsJournal

/// `show RUN_ID --follow`: follows a run by reading its journal as it grows, and prints each
/// line of its history (``HistoryText``) once it is new or says something new, until the run is
/// no longer running; then its end. A finished run prints its steps and its end at once.
///
/// It reads the journal on `scheduler`, every `interval`, as any other reader does (the journal
/// is the only thing the run and the follower share, so a run of any program in any process
/// can be followed).
struct RunFollower {
    let store: RunStore
    let runID: RunID
    let console: Console
    /// Where the next read is scheduled: the runner's clock.
    var scheduler: any Scheduler = DispatchScheduler.shared
    /// How long between two reads of a live run's journal.
    var interval: Duration = .milliseconds(100)

    /// Follows the run from `record`, its journal as first read, to its end.
    ///
    /// - Returns: ``ExitStatus/success`` once the run is no longer running.
    /// - Throws: What reading the journal throws (``JournalError``).
    func follow(from record: JournalRecord) throws -> Int32 {
        var printed: [HistoryText.Line.Key: String] = [:]
        var eventLinesPrinted = 0
        var record = record
        console.print("Following run \(runID) · \(record.scenario)")
        while true {
            let history = RunHistory(record, now: scheduler.wallClock)
            var text = HistoryText(history: history)
            text.showsElapsed = false
            for line in text.lines where printed[line.key] != line.text {
                console.print(line.text)
                printed[line.key] = line.text
            }
            // Events are only ever appended: the lines past those printed are new.
            let eventLines = text.eventLines
            for line in eventLines.dropFirst(eventLinesPrinted) { console.print(line) }
            eventLinesPrinted = max(eventLinesPrinted, eventLines.count)
            guard history.status == .running else {
                console.print(text.headline)
                if let error = history.error { console.print("Error: \(error)") }
                return ExitStatus.success
            }
            let elapsed = DispatchSemaphore(value: 0)
            scheduler.schedule(after: interval) { elapsed.signal() }
            elapsed.wait()
            record = try store.load(runID)
        }
    }
}
