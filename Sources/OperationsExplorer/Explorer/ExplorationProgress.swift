import Foundation
import Operations

/// How far an exploration is, as ``FaultExplorer/explore(progress:)`` tells it after each
/// schedule: what a terminal shows while `explore` runs.
public struct ExplorationProgress: Sendable, Hashable {
    /// How many schedules have run (exhaustive and random, not the runs that shrink a violation).
    public let schedules: Int
    /// How many schedules the exploration runs in all, once that is known: when every schedule
    /// that can still grow another fault has run, the exhaustive ones left are all found. `nil`
    /// before.
    public let total: Int?
    /// The time since the exploration began, on the wall clock.
    public let elapsed: Duration

    /// Schedules per second so far; 0 before any time has passed.
    public var rate: Double {
        let seconds = elapsed.inSeconds
        return seconds > 0 ? Double(schedules) / seconds : 0
    }
}

/// The schedules of a phase still to run, shared by the explorer's workers, and what they count
/// over both phases. Taken in the order they came, so every schedule of k faults runs before
/// any of k + 1 and the total is known once the last schedule that may grow has run.
final class Frontier: @unchecked Sendable {
    // @unchecked: every field is touched only under `condition`.
    private let condition = NSCondition()
    private let start = ContinuousClock.now
    private let progress: (@Sendable (ExplorationProgress) -> Void)?
    private var pending: [(schedule: FaultSchedule, index: Int)] = []
    private var head = 0
    private var busy = 0
    private var growing = 0
    private var canGrow: @Sendable (FaultSchedule) -> Bool = { _ in false }
    private var violations: [(schedule: FaultSchedule, problems: [String], index: Int)] = []
    private var run = 0
    private var boundaries = 0
    private var later: Int

    init(randomSchedules: Int, progress: (@Sendable (ExplorationProgress) -> Void)?) {
        later = randomSchedules
        self.progress = progress
    }

    var count: Int { condition.withLock { run } }
    var boundaryCount: Int { condition.withLock { boundaries } }

    var found: [(schedule: FaultSchedule, problems: [String], index: Int)] {
        condition.withLock { violations }
    }

    /// Starts a phase with `initial`; after the last, nothing runs.
    func begin(_ initial: [FaultSchedule], canGrow: @escaping @Sendable (FaultSchedule) -> Bool, isLast: Bool) {
        condition.withLock {
            pending = initial.enumerated().map { ($0.element, $0.offset) }
            head = 0
            growing = initial.filter(canGrow).count
            self.canGrow = canGrow
            violations = []
            if isLast { later = 0 }
        }
    }

    /// The next schedule, waiting while others run that may make more; `nil` at the phase's end.
    func take() -> (FaultSchedule, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while head == pending.count && busy > 0 { condition.wait() }
        guard head < pending.count else { return nil }
        let next = pending[head]
        head += 1
        if head >= 1_024 && head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
        busy += 1
        return next
    }

    /// One schedule ran. Tells the progress under the lock, so its calls come in order.
    func finish(
        _ schedule: FaultSchedule, index: Int, problems: [String], next: [FaultSchedule], boundaries: Int?
    ) {
        condition.lock()
        defer { condition.unlock() }
        busy -= 1
        if canGrow(schedule) { growing -= 1 }
        if !problems.isEmpty { violations.append((schedule, problems, index)) }
        pending += next.map { ($0, index) }
        growing += next.filter(canGrow).count
        run += 1
        if let boundaries { self.boundaries = boundaries }
        // Known once no schedule that may grow is left: this phase's rest and the later phases'.
        let left = growing == 0 ? pending.count - head + busy : nil
        progress?(
            ExplorationProgress(
                schedules: run, total: left.map { run + $0 + later }, elapsed: start.duration(to: .now)))
        condition.broadcast()
    }
}

extension FaultSchedule {
    /// Whether this schedule comes before `other` in the order violations are reported in:
    /// fewer faults first, then by boundary and fault.
    func precedes(_ other: FaultSchedule) -> Bool {
        if entries.count != other.entries.count { return entries.count < other.entries.count }
        for (mine, theirs) in zip(entries, other.entries) where mine != theirs {
            if mine.boundary != theirs.boundary { return mine.boundary < theirs.boundary }
            return (Fault.allCases.firstIndex(of: mine.fault) ?? 0) < (Fault.allCases.firstIndex(of: theirs.fault) ?? 0)
        }
        return false
    }
}
