import Dispatch
public import Foundation
import Operations
import OperationsDiagrams
public import OperationsJournal

/// Runs a scenario under every fault schedule up to a number of faults, then random ones, and
/// checks after each that "never twice" held (Sources/OperationsExplorer/Explorer/ScheduleRun.swift
/// lists the checks): every effect performed at most once, the run finishes succeeded once the
/// faults stop, the journal reads and `check` agrees with the rerun, no launch is left unfinished
/// or finished twice, no declared secret is in the journal in clear.
///
/// Faults go at every boundary the engine knows: each request (fails before acting, acts and
/// loses its answer, times out, 5xx, 429), each journal write (disk full, I/O error after a
/// short write, torn by a kill) and sync, a kill at each of them followed by a resume from
/// exactly the bytes on disk, and Ctrl-C. It is deterministic: time is a `TestScheduler`, keys
/// are a sequence, and a violation is reported with its schedule shrunk to the fewest faults
/// that still break it, replayable with ``replay(_:)``.
///
/// ```swift
/// @Test func checkoutNeverActsTwice() {
///     let report = FaultExplorer(maxFaults: 2) { world in
///         let bank = SimulatedBank(world: world)      // consults world.request, counts effects
///         return ExploredFlow(scenario: CheckoutFactory(bank: bank).checkout(), input: order)
///     }.explore()
///     #expect(report.violations.isEmpty, "\(report)")
/// }
/// ```
public struct FaultExplorer<Input: Sendable, Output: Sendable>: Sendable {
    /// The most faults in one exhaustive schedule.
    public let maxFaults: Int
    /// How many random schedules run after the exhaustive ones.
    public let randomSchedules: Int
    /// Where the random schedules come from.
    public let seed: UInt64
    /// Seals the confidential values of every journal the explorer creates, and opens them on
    /// every resume and every check: the sealer the team's program runs with. `nil` withholds
    /// them, and a resume launches their steps again.
    public let sealer: (any JournalSealer)?
    /// How much later on the wall clock a process starts after ``Fault/restartLater``.
    public let restartDelay: Duration
    /// How many schedules run at once, each on a thread of its own. The report is the same
    /// whatever the number: each schedule runs alone in its world, and violations are ordered
    /// by their schedules before they are shrunk.
    public let workers: Int
    private let makeFlow: @Sendable (FaultWorld) -> ExploredFlow<Input, Output>

    /// Creates an explorer.
    ///
    /// - Parameters:
    ///   - maxFaults: The most faults in one exhaustive schedule; 2 by default.
    ///   - randomSchedules: Random schedules after the exhaustive ones, each with up to one
    ///     fault more; none by default.
    ///   - seed: The seed of the random schedules.
    ///   - sealer: The sealer the flow's journals are created, resumed and checked with; none by
    ///     default.
    ///   - restartDelay: How much later a process starts after ``Fault/restartLater``; an hour by
    ///     default.
    ///   - workers: How many schedules run at once; one per processor by default, at least one.
    ///   - flow: Builds the flow for one schedule over the world's services.
    public init(
        maxFaults: Int = 2, randomSchedules: Int = 0, seed: UInt64 = 0, sealer: (any JournalSealer)? = nil,
        restartDelay: Duration = .seconds(3_600), workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        flow: @escaping @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    ) {
        self.maxFaults = max(0, maxFaults)
        self.randomSchedules = max(0, randomSchedules)
        self.seed = seed
        self.sealer = sealer
        self.restartDelay = max(.zero, restartDelay)
        self.workers = max(1, workers)
        self.makeFlow = flow
    }

    /// Runs every schedule and reports what broke.
    ///
    /// - Parameter progress: Told after each schedule how far the exploration is, one call at a
    ///   time, on any of the explorer's threads; keep it quick. `nil` by default.
    /// - Returns: The report: how many schedules ran, and each distinct violation shrunk.
    public func explore(progress: (@Sendable (ExplorationProgress) -> Void)? = nil) -> ExplorationReport {
        let scenarioName = name
        let frontier = Frontier(randomSchedules: randomSchedules, progress: progress)
        // Every schedule of up to `maxFaults` faults, each extended only at the boundaries its
        // own run reached after its last fault.
        let maxFaults = maxFaults
        let grow: @Sendable (FaultSchedule, ScheduleRun<Input, Output>.Outcome) -> [FaultSchedule] = {
            schedule, outcome in
            guard schedule.entries.count < maxFaults else { return [] }
            let after = schedule.entries.last?.boundary ?? -1
            return outcome.boundaries.filter { $0.index > after }.flatMap { boundary in
                Fault.applicable(to: boundary.kind).map { fault in
                    FaultSchedule(schedule.entries + [.init(boundary: boundary.index, fault: fault)])
                }
            }
        }
        let exhaustive = runAll(
            [FaultSchedule()], frontier, canGrow: { $0.entries.count < maxFaults }, isLast: false, next: grow)
        var random = SplitMix64(seed: seed)
        var schedules: [FaultSchedule] = []
        for _ in 0..<randomSchedules {
            let faults = Int(random.next() % UInt64(maxFaults + 1)) + 1
            var entries: [FaultSchedule.Entry] = []
            for _ in 0..<faults {
                let boundary = Int(random.next() % UInt64(max(1, frontier.boundaryCount * 3 / 2)))
                guard !entries.contains(where: { $0.boundary == boundary }) else { continue }
                let fault = Fault.allCases[Int(random.next() % UInt64(Fault.allCases.count))]
                entries.append(.init(boundary: boundary, fault: fault))
            }
            schedules.append(FaultSchedule(entries))
        }
        let randomFound = runAll(schedules, frontier, canGrow: { _ in false }, isLast: true, next: { _, _ in [] })

        // The same order whatever thread found what: by schedule, then the random ones as drawn.
        let broken =
            exhaustive.sorted { $0.schedule.precedes($1.schedule) }.map { ($0.schedule, nil as UInt64?, $0.problems) }
            + randomFound.sorted { $0.index < $1.index }.map { ($0.schedule, seed, $0.problems) }
        // The first violation of each kind (its problems with the numbers taken out), shrunk.
        var kinds: Set<String> = []
        var violations: [ExplorationReport.Violation] = []
        for (schedule, seed, problems) in broken {
            let kind = problems.map { $0.filter { !$0.isNumber } }.joined(separator: "|")
            guard !kinds.contains(kind), violations.count < 20 else { continue }
            let (smallest, smallestProblems) = shrink(schedule, problems)
            // Schedules that broke it in different words may shrink to one already reported.
            guard !violations.contains(where: { $0.schedule == smallest && $0.problems == smallestProblems }) else {
                continue
            }
            kinds.insert(kind)
            violations.append(violation(smallest, seed: seed, smallestProblems))
        }
        return ExplorationReport(
            scenario: scenarioName, schedules: frontier.count, maxFaults: maxFaults, seed: seed, violations: violations)
    }

    /// Runs `initial` and every schedule `next` makes of a run without problems, on ``workers``
    /// threads (this one among them), as one phase of `frontier`, and returns the schedules with
    /// problems, each with its place in `initial` (for the random ones).
    private func runAll(
        _ initial: [FaultSchedule], _ frontier: Frontier, canGrow: @escaping @Sendable (FaultSchedule) -> Bool,
        isLast: Bool, next: @escaping @Sendable (FaultSchedule, ScheduleRun<Input, Output>.Outcome) -> [FaultSchedule]
    ) -> [(schedule: FaultSchedule, problems: [String], index: Int)] {
        frontier.begin(initial, canGrow: canGrow, isLast: isLast)
        let work: @Sendable () -> Void = {
            // One folder per thread for the journals of its schedules, one at a time.
            Self.withScratchFolder { folder in
                while let (schedule, index) = frontier.take() {
                    let outcome = run(schedule, in: folder)
                    frontier.finish(
                        schedule, index: index, problems: outcome.problems,
                        next: outcome.problems.isEmpty ? next(schedule, outcome) : [],
                        boundaries: schedule.entries.isEmpty ? outcome.boundaries.count : nil)
                }
            }
        }
        // Plain threads, not Dispatch's pool: a flow's answers come back on that pool, and a
        // worker blocked there waiting for them would starve it.
        let helpers = (0..<(initial.isEmpty ? 0 : workers - 1)).map { _ in
            let done = DispatchSemaphore(value: 0)
            Thread {
                work()
                done.signal()
            }.start()
            return done
        }
        work()
        for done in helpers { done.wait() }
        return frontier.found
    }

    /// Runs one schedule again, exactly, with its diagram: what a test does with a schedule a
    /// report printed.
    ///
    /// - Parameter schedule: The faults, by boundary.
    /// - Returns: A report of that one schedule.
    public func replay(_ schedule: FaultSchedule) -> ExplorationReport {
        let problems = run(schedule).problems
        let violations = problems.isEmpty ? [] : [violation(schedule, seed: nil, problems)]
        return ExplorationReport(
            scenario: name, schedules: 1, maxFaults: schedule.entries.count, seed: seed, violations: violations)
    }

    // MARK: - Internals

    private var name: String {
        makeFlow(FaultWorld(schedule: FaultSchedule(), scheduler: TestScheduler())).scenario.name
    }

    /// Runs one schedule in `directory`, or in a folder of its own.
    private func run(_ schedule: FaultSchedule, tracer: InMemoryTracer? = nil, in directory: URL? = nil)
        -> ScheduleRun<Input, Output>.Outcome
    {
        guard let directory else { return Self.withScratchFolder { run(schedule, tracer: tracer, in: $0) } }
        return ScheduleRun(
            schedule: schedule, makeFlow: makeFlow, sealer: sealer, restartDelay: restartDelay, tracer: tracer,
            directory: directory
        ).run()
    }

    /// Runs `body` with a new folder for journals, removed after.
    private static func withScratchFolder<T>(_ body: (URL) -> T) -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("explore-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return body(folder)
    }

    /// `schedule` shrunk to the fewest faults that still break an invariant, with its problems.
    private func shrink(_ schedule: FaultSchedule, _ problems: [String]) -> (FaultSchedule, [String]) {
        var smallest = (schedule, problems)
        var shrinking = true
        while shrinking {
            shrinking = false
            // Without a fault the run reaches its later boundaries sooner (a failed write no
            // longer costs a session), so the later faults are tried where they land then too.
            search: for index in smallest.0.entries.indices {
                for shift in 0...8 {
                    var entries = smallest.0.entries
                    entries.remove(at: index)
                    for later in entries.indices where later >= index {
                        entries[later].boundary -= shift
                    }
                    guard entries.allSatisfy({ $0.boundary >= 0 }) else { break }
                    let candidate = FaultSchedule(entries)
                    let outcome = run(candidate)
                    if !outcome.problems.isEmpty {
                        smallest = (candidate, outcome.problems)
                        shrinking = true
                        break search
                    }
                }
            }
        }
        return smallest
    }

    /// The violation of `schedule`, with the run under it drawn.
    private func violation(_ schedule: FaultSchedule, seed: UInt64?, _ problems: [String])
        -> ExplorationReport.Violation
    {
        let tracer = InMemoryTracer()
        _ = run(schedule, tracer: tracer)
        let diagram = (try? TextDiagramRenderer().render(tracer.trace)) ?? "(the run could not be drawn)"
        return ExplorationReport.Violation(schedule: schedule, seed: seed, problems: problems, diagram: diagram)
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same random schedules on every
/// machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
