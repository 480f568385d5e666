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

    /// Creates a report of progress.
    ///
    /// - Parameters:
    ///   - schedules: Schedules run so far.
    ///   - total: Schedules in all, when known.
    ///   - elapsed: Time since the exploration began.
    public init(schedules: Int, total: Int?, elapsed: Duration) {
        self.schedules = schedules
        self.total = total
        self.elapsed = elapsed
    }

    /// Schedules per second so far; 0 before any time has passed.
    public var rate: Double {
        let seconds = elapsed.inSeconds
        return seconds > 0 ? Double(schedules) / seconds : 0
    }
}

/// What the explorer's workers count together over both phases: schedules run, the boundaries
/// of the run without faults (where random schedules put theirs), and the progress told.
final class Tally: @unchecked Sendable {
    // @unchecked: every field is touched only under `lock`.
    private let lock = NSLock()
    private let start = ContinuousClock.now
    private let progress: (@Sendable (ExplorationProgress) -> Void)?
    private var run = 0
    private var boundaries = 0
    /// Schedules the phases after the current one will run.
    private var later: Int

    init(randomSchedules: Int, progress: (@Sendable (ExplorationProgress) -> Void)?) {
        later = randomSchedules
        self.progress = progress
    }

    var count: Int { lock.withLock { run } }
    var boundaryCount: Int { lock.withLock { boundaries } }

    /// The random phase begins: nothing runs after it.
    func beginLastPhase() {
        lock.withLock { later = 0 }
    }

    /// One schedule ran; `left` schedules of this phase are still to run, if known. Tells the
    /// progress under the lock, so its calls come one at a time and in order.
    func ran(left: Int?, boundariesWithoutFaults: Int?) {
        lock.withLock {
            run += 1
            if let boundariesWithoutFaults { boundaries = boundariesWithoutFaults }
            progress?(
                ExplorationProgress(
                    schedules: run, total: left.map { run + $0 + later }, elapsed: start.duration(to: .now)))
        }
    }
}

/// The schedules of one phase still to run, shared by the workers: each takes one, runs it,
/// and hands back what it found and the schedules that grow from it. Taken in the order they
/// came, so every schedule of k faults runs before any of k + 1 and the total is known as soon as
/// the last schedule that may grow has run.
final class Frontier: @unchecked Sendable {
    // @unchecked: every field is touched only under `condition`.
    private let condition = NSCondition()
    private var pending: [(schedule: FaultSchedule, index: Int)]
    /// The next to take from `pending`; those before it were taken.
    private var head = 0
    private var busy = 0
    /// Pending or running schedules that may still make more.
    private var growing: Int
    private var violations: [(schedule: FaultSchedule, problems: [String], index: Int)] = []
    private let canGrow: @Sendable (FaultSchedule) -> Bool

    init(_ initial: [FaultSchedule], canGrow: @escaping @Sendable (FaultSchedule) -> Bool) {
        pending = initial.enumerated().map { ($0.element, $0.offset) }
        growing = initial.filter(canGrow).count
        self.canGrow = canGrow
    }

    /// The schedules that broke an invariant, with their problems.
    var found: [(schedule: FaultSchedule, problems: [String], index: Int)] {
        condition.withLock { violations }
    }

    /// The next schedule to run, waiting while others run that may make more; `nil` when the
    /// phase is over.
    func take() -> (FaultSchedule, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while head == pending.count && busy > 0 { condition.wait() }
        guard head < pending.count else { return nil }
        let next = pending[head]
        head += 1
        // Taken schedules are let go of now and then, not one at a time.
        if head >= 1_024 && head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
        busy += 1
        return next
    }

    /// One schedule ran: its problems, and the schedules that grow from it.
    func finish(
        _ schedule: FaultSchedule, index: Int, problems: [String], next: [FaultSchedule], tally: Tally,
        boundaries: Int?
    ) {
        condition.lock()
        defer { condition.unlock() }
        busy -= 1
        if canGrow(schedule) { growing -= 1 }
        if !problems.isEmpty { violations.append((schedule, problems, index)) }
        pending += next.map { ($0, index) }
        growing += next.filter(canGrow).count
        tally.ran(left: growing == 0 ? pending.count - head + busy : nil, boundariesWithoutFaults: boundaries)
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
