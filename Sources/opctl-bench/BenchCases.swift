/// The table of `opctl-bench`: every case, in report order, with the guards Docs/Benchmarks.md
/// explains.
///
/// A guard is something a person or a CI bill notices: whole commands (`--version`, the scripted
/// sign-in, `runs`, `show`, `check`, `explore`, the pages `ui` serves), a durable step against
/// the disk's own floor, memory staying flat, and the async-function operation issue 37 holds
/// within 1.5× of the bridge. Every other case is a figure: reported, never guarded, never tuned for.
///
/// Adding a case is one definition beside its peers (each family of cases in a file of its own,
/// its id, summary, reference, guard and body together) and its name here. A case whose engine
/// piece is not in a build is listed as ``BenchCase/unavailable(_:_:reference:targets:)`` with
/// its targets, so the report shows it as missing instead of faking a figure. A case marked
/// ``BenchCase/slow()`` is skipped by `--quick` and reported as skipped.
enum BenchCases {
    static let all: [BenchCase] =
        inProcess + RenderCases.all + ExploreCases.all + wholeProcessAndStore + UICases.all + [
            EngineCases.memory, EngineCases.memoryWithDeadline, ParallelCases.memory,
        ]

    private static let inProcess: [BenchCase] = [
        ReferenceCases.selfRetain, EngineCases.opSync, EngineCases.opAsync, ReferenceCases.operationQueueBatch,
        ReferenceCases.operationQueueEachWaited, ReferenceCases.dispatchAsync, ReferenceCases.checkedContinuation,
        EngineCases.bridgeAwait, EngineCases.bridgeFloor, EngineCases.asyncOpAwait, ReferenceCases.taskAwait,
        EngineCases.threeOpsByHand, EngineCases.threeOpsThroughProtocol, EngineCases.threeStepScenario,
        ParallelCases.chain, ParallelCases.fanOut, ReferenceCases.threeAsyncFunctions,
        EngineCases.threeStepScenarioAwaited, TraceCases.off, TraceCases.message, JournalCases.buffered,
        JournalCases.floor, JournalCases.durable,
    ]

    private static let wholeProcessAndStore: [BenchCase] = [
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
    ]

    /// A whole-process case, unavailable when no `opctl` was built beside this program.
    private static func process(
        _ id: String, _ summary: String, targets: [BenchTarget], _ body: @escaping @Sendable (Int) -> Void
    ) -> BenchCase {
        ProcessCases.opctl == nil
            ? .unavailable(id, summary, targets: targets) : .timed(id, summary, targets: targets, body)
    }

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
