/// The table of `opctl-bench`: every case, in report order, with the guards Docs/Benchmarks.md
/// explains.
///
/// A guard is something a person or a CI bill notices: whole commands (`--version`, the scripted
/// sign-in, `runs`, `show`, `check`, `explore`), a durable step against the disk's own floor,
/// memory staying flat, and the async-function operation issue 37 holds within 1.5× of the
/// bridge. Every other case is a figure: reported, never guarded, never tuned for.
///
/// Adding a case is one entry. A case whose engine piece is not in a build is listed as
/// ``BenchCase/unavailable(_:_:reference:targets:)`` with its targets, so the report shows it as
/// missing instead of faking a figure. A case marked ``BenchCase/slow()`` is skipped by
/// `--quick` and reported as skipped.
enum BenchCases {
    static let all: [BenchCase] = [
        .timed(
            "baseline.selfRetain",
            "hand-written: allocate a final class that retains itself, finish once through an atomic flag, release",
            ReferenceCases.selfRetainingBaseline),
        .timed(
            "op.sync", "engine operation, launch → onFinish synchronously", reference: "baseline.selfRetain",
            EngineCases.syncLaunches),
        .timed(
            "op.async", "engine operation finished from another thread (serial queue)", reference: "dispatch.async",
            EngineCases.asyncLaunches
        ).crossThread(),
        .timed(
            "opqueue.batch", "OperationQueue, BlockOperations added in a batch, waited once", reference: "op.sync",
            ReferenceCases.operationQueueBatch
        ).crossThread(),
        .timed(
            "opqueue.wait", "OperationQueue, each BlockOperation added and waited for", reference: "op.sync",
            ReferenceCases.operationQueueEachWaited
        ).crossThread(),
        .timed(
            "dispatch.async", "DispatchQueue.async (serial queue) + one group wait",
            ReferenceCases.dispatchAsync
        ).crossThread(),
        .timed(
            "continuation.checked", "withCheckedContinuation resumed inline",
            ReferenceCases.checkedContinuation),
        .timed(
            "bridge.await", "the engine's async/await bridge on a synchronous operation",
            reference: "continuation.checked", EngineCases.bridgeAwaits),
        .timed(
            "bridge.floor",
            "the least a bridge does: task cancellation handler, unsafe continuation, one launch through Op",
            reference: "continuation.checked", EngineCases.bridgeFloors),
        .timed(
            "asyncop.await", "the same operation written as an async throws function (AsyncOp), awaited",
            reference: "bridge.await", targets: [.ratioAtMost(1.5)], EngineCases.asyncOpAwaits),
        .timed(
            "task.await", "Task {} + await", reference: "bridge.await",
            ReferenceCases.taskAwait
        ).crossThread(),
        .timed(
            "ops.3byHand", "three operations made and launched one after another by hand",
            EngineCases.threeOpsByHand),
        .timed(
            "ops.3viaProtocol", "the same, each launched through `any Op<Int, Int>` as an engine holds them",
            reference: "ops.3byHand", EngineCases.threeOpsThroughProtocol),
        .timed(
            "scenario.3steps", "a 3-step scenario of the same operations", reference: "opqueue.batch",
            EngineCases.threeStepScenario),
        .timed(
            "scenario.chain1k", "a scenario of 1,000 synchronous steps chained", ParallelCases.chainedSteps),
        .timed(
            "parallel.fanout1k", "the same 1,000 steps as the branches of one parallel step",
            reference: "scenario.chain1k", ParallelCases.fannedOutSteps),
        .timed(
            "asyncawait.3steps", "three async functions awaited in a row, each a callback step behind a continuation",
            ReferenceCases.threeAsyncFunctions),
        .timed(
            "scenario.3steps.await", "the 3-step scenario awaited through the async bridge",
            reference: "asyncawait.3steps", EngineCases.threeStepScenarioAwaited),
        .timed(
            "trace.off", "an operation with a trace hook, launched with tracing off (context.trace == nil)",
            reference: "op.sync", TraceCases.tracingOffLaunches),
        .timed(
            "trace.message", "one message recorded with tracing on: TraceScope.message(to:_:) into InMemoryTracer",
            TraceCases.recordedMessages),
        .timed(
            "journal.buffered", "one stepLaunched event with a small Codable struct appended to a buffered journal",
            JournalCases.bufferedEvents),
        .timed(
            "fsync.floor", "the floor of a durable step: one line appended to a file, then the journal's sync call",
            JournalCases.appendAndSync),
        .timed(
            "journal.fsync", "one step journaled durably: stepLaunched + stepSucceeded, one sync",
            reference: "fsync.floor", targets: [.ratioAtMost(1.3)], JournalCases.durableSteps),
        .timed(
            "render.1k", "text rendering of a trace of 1,000 messages over 8 lifelines", RenderCases.rendering(1_000)),
        .timed(
            "render.10k", "text rendering of a trace of 10,000 messages over 8 lifelines", reference: "render.1k",
            RenderCases.rendering(10_000)),
        .timed(
            "render.10k.frames", "text rendering of 10,000 messages with loop and alt frames around every code step",
            reference: "render.10k", RenderCases.rendering(10_000, framed: true)),
        .timed(
            "render.100k", "text rendering of a trace of 100,000 messages over 8 lifelines (skipped by --quick)",
            reference: "render.10k", RenderCases.rendering(100_000)
        ).slow(),
        .timed(
            "explore.auth", "one fault schedule of the sign-in explored: every session, rerun and check",
            ExploreCases.signInSchedules),
        BenchCase(
            id: "explore.memory",
            summary: "resident-size growth over 2,000 explored sign-in schedules (skipped by --quick)",
            reference: nil, targets: [.bytesBelow(1_000_000)], measure: .residentGrowth(ExploreCases.residentGrowth)
        ).slow(),
        process(
            "process.version", "the built opctl started with --version and waited for: the floor of any command",
            targets: [.atMost(nanoseconds: 20_000_000)], ProcessCases.version),
        process(
            "process.signIn", "the built opctl running the README's scripted sign-in, journal and trace written",
            targets: [.atMost(nanoseconds: 50_000_000)], ProcessCases.signIn),
        process(
            "process.explore",
            "the built opctl exploring every sign-in schedule of up to two faults (skipped by --quick)",
            targets: [.atMost(nanoseconds: 10_000_000_000)], ProcessCases.exploring
        ).slow(),
        process(
            "process.runs", "the built opctl listing a state directory of 50,000 runs (2,000 with --quick)",
            targets: [.atMost(nanoseconds: 300_000_000)], ProcessCases.listing),
        process(
            "process.show", "the built opctl showing a failed run among 50,000 (2,000 with --quick)",
            targets: [.atMost(nanoseconds: 300_000_000)], ProcessCases.showing),
        process(
            "process.check", "the built opctl checking a state directory of 50,000 runs (2,000 with --quick)",
            targets: [.atMost(nanoseconds: 5_000_000_000)], ProcessCases.checking),
        ProcessCases.opctl == nil
            ? .unavailable(
                "process.check.memory", "peak resident size of that check", targets: [.bytesBelow(100_000_000)])
            : BenchCase(
                id: "process.check.memory", summary: "peak resident size of that check", reference: nil,
                targets: [.bytesBelow(100_000_000)], measure: .residentGrowth(ProcessCases.checkingMemory)),
        .timed(
            "store.openEmpty", "a RunStore opened on a state directory with no runs", StoreCases.openingEmpty),
        .timed(
            "store.open", "a RunStore opened on the state directory of 50,000 runs (2,000 with --quick)",
            reference: "store.openEmpty", StoreCases.opening),
        .timed(
            "journal.resume100k", "an interrupted run with a 100,000-line journal resumed (10,000 with --quick)",
            StoreCases.resuming),
        BenchCase(
            id: "journal.resume100k.memory",
            summary: "peak resident size a process resuming that journal adds, against 3× the journal's size",
            reference: nil, targets: [], measure: .residentGrowth(StoreCases.resumingMemory)),
        BenchCase(
            id: "memory.1M", summary: "resident-size growth over a million sequential op.sync launches",
            reference: nil, targets: [.bytesBelow(1_000_000)], measure: .residentGrowth(EngineCases.residentGrowth)),
        BenchCase(
            id: "memory.deadline",
            summary: "resident-size growth over a million sequential op.sync launches with a 60 s deadline",
            reference: nil, targets: [.bytesBelow(1_000_000)],
            measure: .residentGrowth(EngineCases.deadlineResidentGrowth)),
        BenchCase(
            id: "memory.parallel",
            summary: "resident-size growth over 100,000 sequential launches of a 4-branch parallel step",
            reference: nil, targets: [.bytesBelow(1_000_000)], measure: .residentGrowth(ParallelCases.residentGrowth)),
    ]

    /// A whole-process case, unavailable when no `opctl` was built beside this program.
    private static func process(
        _ id: String, _ summary: String, targets: [BenchTarget], _ body: @escaping @Sendable (Int) -> Void
    ) -> BenchCase {
        ProcessCases.opctl == nil
            ? .unavailable(id, summary, targets: targets) : .timed(id, summary, targets: targets, body)
    }

    /// The case with `id`, if the table has one.
    static func named(_ id: String) -> BenchCase? {
        all.first { $0.id == id }
    }

    /// The cases to run for a selection: the selected ones and, transitively, their references
    /// (a ratio needs both), in table order. An empty selection is every case.
    static func closure(of selection: [String]) -> [BenchCase] {
        guard !selection.isEmpty else { return all }
        var wanted = Set<String>()
        var pending = selection
        while let id = pending.popLast() {
            guard wanted.insert(id).inserted, let reference = named(id)?.reference else { continue }
            pending.append(reference)
        }
        return all.filter { wanted.contains($0.id) }
    }
}
