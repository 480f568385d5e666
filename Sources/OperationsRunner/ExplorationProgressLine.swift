import Operations
import OperationsExplorer
import Synchronization

/// The line `explore` keeps up to date on a terminal while it runs: how many schedules ran, of
/// how many when that is known, and how fast — on standard error, written over in place, and
/// only when standard error is a terminal (a log or a pipe gets nothing; `--json` is unchanged).
final class ExplorationProgressLine: Sendable {
    /// The flow explored, named on the line.
    let flow: String
    let console: Console
    /// When the line was last drawn, in seconds since the exploration began.
    private let drawnAt = Mutex<Double?>(nil)

    /// Redrawn at most this often.
    static let interval = 0.1

    init(flow: String, console: Console) {
        self.flow = flow
        self.console = console
    }

    /// The line for `progress`: `explore auth: 1200 of 5237 schedules (22%), 830/s`.
    static func text(flow: String, _ progress: ExplorationProgress) -> String {
        let done: String
        if let total = progress.total, total > 0 {
            done = "\(progress.schedules) of \(total) schedules (\(progress.schedules * 100 / total)%)"
        } else {
            done = "\(progress.schedules) schedules"
        }
        return "explore \(flow): \(done), \(Int(progress.rate.rounded()))/s"
    }

    /// Draws the line over the last one, if the last was drawn long enough ago.
    func update(_ progress: ExplorationProgress) {
        let now = progress.elapsed.inSeconds
        let due = drawnAt.withLock { drawnAt -> Bool in
            if let last = drawnAt, now - last < Self.interval { return false }
            drawnAt = now
            return true
        }
        if due { console.err("\r" + Self.text(flow: flow, progress) + Self.clearToEnd) }
    }

    /// Takes the line away, leaving the cursor where it was before the first one.
    func clear() {
        if drawnAt.withLock({ $0 }) != nil { console.err("\r" + Self.clearToEnd) }
    }

    /// Erases from the cursor to the end of the line (ANSI EL).
    private static let clearToEnd = "\u{1B}[K"
}
