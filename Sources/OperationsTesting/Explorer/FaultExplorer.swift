import Operations
import OperationsDiagrams

/// Runs a scenario under every fault schedule up to a number of faults, then random ones, and
/// checks after each that "never twice" held (Sources/OperationsTesting/Explorer/ScheduleRun.swift
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
    private let makeFlow: @Sendable (FaultWorld) -> ExploredFlow<Input, Output>

    /// Creates an explorer.
    ///
    /// - Parameters:
    ///   - maxFaults: The most faults in one exhaustive schedule; 2 by default.
    ///   - randomSchedules: Random schedules after the exhaustive ones, each with up to one
    ///     fault more; none by default.
    ///   - seed: The seed of the random schedules.
    ///   - flow: Builds the flow for one schedule over the world's services.
    public init(
        maxFaults: Int = 2, randomSchedules: Int = 0, seed: UInt64 = 0,
        flow: @escaping @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    ) {
        self.maxFaults = max(0, maxFaults)
        self.randomSchedules = max(0, randomSchedules)
        self.seed = seed
        self.makeFlow = flow
    }

    /// Runs every schedule and reports what broke.
    public func explore() -> ExplorationReport {
        var found: [String: ExplorationReport.Violation] = [:]
        var order: [String] = []
        var count = 0
        var scenarioName = ""
        // Breadth first: all schedules of k faults before any of k + 1, each extended only at
        // the boundaries its own run reached after its last fault.
        var pending: [FaultSchedule] = [FaultSchedule()]
        var boundaryCount = 0
        while !pending.isEmpty {
            let schedule = pending.removeLast()
            let outcome = run(schedule)
            count += 1
            if schedule.entries.isEmpty {
                boundaryCount = outcome.boundaries.count
                scenarioName = name
            }
            if !outcome.problems.isEmpty {
                record(schedule, seed: nil, outcome.problems, into: &found, order: &order)
                continue
            }
            guard schedule.entries.count < maxFaults else { continue }
            let after = schedule.entries.last?.boundary ?? -1
            for boundary in outcome.boundaries.reversed() where boundary.index > after {
                for fault in Fault.applicable(to: boundary.kind).reversed() {
                    pending.append(FaultSchedule(schedule.entries + [.init(boundary: boundary.index, fault: fault)]))
                }
            }
        }
        var random = SplitMix64(seed: seed)
        for _ in 0..<randomSchedules {
            let faults = Int(random.next() % UInt64(maxFaults + 1)) + 1
            var entries: [FaultSchedule.Entry] = []
            for _ in 0..<faults {
                let boundary = Int(random.next() % UInt64(max(1, boundaryCount * 3 / 2)))
                guard !entries.contains(where: { $0.boundary == boundary }) else { continue }
                let fault = Fault.allCases[Int(random.next() % UInt64(Fault.allCases.count))]
                entries.append(.init(boundary: boundary, fault: fault))
            }
            let schedule = FaultSchedule(entries)
            let outcome = run(schedule)
            count += 1
            if !outcome.problems.isEmpty {
                record(schedule, seed: seed, outcome.problems, into: &found, order: &order)
            }
        }
        return ExplorationReport(
            scenario: scenarioName, schedules: count, maxFaults: maxFaults, seed: seed,
            violations: order.compactMap { found[$0] })
    }

    /// Runs one schedule again, exactly, with its diagram: what a test does with a schedule a
    /// report printed.
    ///
    /// - Parameter schedule: The faults, by boundary.
    /// - Returns: A report of that one schedule.
    public func replay(_ schedule: FaultSchedule) -> ExplorationReport {
        let outcome = run(schedule)
        let violations =
            outcome.problems.isEmpty
            ? []
            : [
                ExplorationReport.Violation(
                    schedule: schedule, seed: nil, problems: outcome.problems, diagram: diagram(schedule))
            ]
        return ExplorationReport(
            scenario: name, schedules: 1, maxFaults: schedule.entries.count, seed: seed, violations: violations)
    }

    // MARK: - Internals

    private var name: String {
        makeFlow(FaultWorld(schedule: FaultSchedule(), scheduler: TestScheduler())).scenario.name
    }

    private func run(_ schedule: FaultSchedule, tracer: InMemoryTracer? = nil) -> ScheduleRun<Input, Output>.Outcome {
        ScheduleRun(schedule: schedule, makeFlow: makeFlow, tracer: tracer).run()
    }

    /// Keeps the first violation of each kind (its problems with the numbers taken out),
    /// shrunk to the fewest faults that still break an invariant.
    private func record(
        _ schedule: FaultSchedule, seed: UInt64?, _ problems: [String],
        into found: inout [String: ExplorationReport.Violation], order: inout [String]
    ) {
        let kind = problems.map { $0.filter { !$0.isNumber } }.joined(separator: "|")
        guard found[kind] == nil, found.count < 20 else { return }
        var smallest = schedule
        var smallestProblems = problems
        var shrinking = true
        while shrinking {
            shrinking = false
            // Without a fault the run reaches its later boundaries sooner (a failed write no
            // longer costs a session), so the later faults are tried where they land then too.
            search: for index in smallest.entries.indices {
                for shift in 0...8 {
                    var entries = smallest.entries
                    entries.remove(at: index)
                    for later in entries.indices where later >= index {
                        entries[later].boundary -= shift
                    }
                    guard entries.allSatisfy({ $0.boundary >= 0 }) else { break }
                    let candidate = FaultSchedule(entries)
                    let outcome = run(candidate)
                    if !outcome.problems.isEmpty {
                        smallest = candidate
                        smallestProblems = outcome.problems
                        shrinking = true
                        break search
                    }
                }
            }
        }
        order.append(kind)
        found[kind] = ExplorationReport.Violation(
            schedule: smallest, seed: seed, problems: smallestProblems, diagram: diagram(smallest))
    }

    private func diagram(_ schedule: FaultSchedule) -> String {
        let tracer = InMemoryTracer()
        _ = run(schedule, tracer: tracer)
        return (try? TextDiagramRenderer().render(tracer.trace)) ?? "(the run could not be drawn)"
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
