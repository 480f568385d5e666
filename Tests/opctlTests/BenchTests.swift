import Foundation
import Operations
import OperationsDiagrams
import OperationsTesting
import Testing

@testable import opctl_bench

/// Runs the bench's case table in-process with a tiny iteration count. No timed assertions:
/// only that every case runs and reports a usable figure, and that the JSON parses.
@Suite(.serialized)
struct BenchTests {
    @Test func everyAvailableCaseProducesAPositiveFiniteFigure() async throws {
        let results = await Self.smokeRun()
        #expect(results.map(\.benchCase.id) == BenchCases.all.map(\.id))
        for result in results {
            switch result.figure {
            case .nanosecondsPerOperation(let nanoseconds):
                #expect(nanoseconds.isFinite && nanoseconds > 0, "\(result.benchCase.id): \(nanoseconds)")
            case .bytes(let bytes):
                // Growth is clamped at zero, and zero is the ideal: a flat resident size.
                #expect(bytes >= 0, "\(result.benchCase.id): \(bytes)")
            case .unavailable:
                #expect(!result.benchCase.isAvailable, "\(result.benchCase.id) is available but gave no figure")
            case .skipped:
                #expect(result.benchCase.isSlow, "\(result.benchCase.id) is not slow but was skipped")
            }
        }
    }

    @Test func everyCaseOfTheIssueIsAvailable() {
        let expected = [
            "baseline.selfRetain", "op.sync", "op.async", "opqueue.batch", "opqueue.wait", "dispatch.async",
            "continuation.checked", "bridge.await", "bridge.floor", "asyncop.await", "task.await", "ops.3byHand",
            "ops.3viaProtocol",
            "scenario.3steps", "scenario.chain1k", "parallel.fanout1k",
            "asyncawait.3steps", "scenario.3steps.await", "trace.off", "trace.message", "journal.buffered",
            "fsync.floor", "journal.fsync", "render.1k", "render.10k", "render.10k.frames", "render.100k",
            "explore.auth", "explore.memory", "process.version", "process.signIn", "process.explore", "process.runs",
            "process.show",
            "process.check", "process.check.memory", "store.openEmpty", "store.open", "journal.resume100k",
            "journal.resume100k.memory", "ui.runsPage", "ui.runPage", "ui.memory", "memory.1M", "memory.deadline",
            "memory.parallel",
        ]
        #expect(BenchCases.all.map(\.id) == expected)
        // The whole-process cases need the opctl built beside opctl-bench, which a test bundle
        // is not.
        #expect(
            BenchCases.all.filter { !$0.id.hasPrefix("process.") && !$0.id.hasPrefix("ui.") }.allSatisfy {
                $0.isAvailable
            })
        #expect(BenchCases.all.filter(\.isSlow).map(\.id) == ["render.100k", "explore.memory", "process.explore"])
    }

    /// Issue 38: only what a person or a CI bill notices is guarded; every other case is a figure.
    @Test func onlyTheUserVisibleCasesAreGuarded() {
        #expect(
            BenchCases.all.filter { !$0.targets.isEmpty }.map(\.id) == [
                "asyncop.await", "journal.fsync", "explore.memory", "process.version", "process.signIn",
                "process.explore", "process.runs", "process.show", "process.check", "process.check.memory",
                "ui.runsPage", "ui.runPage", "ui.memory", "memory.1M", "memory.deadline", "memory.parallel",
            ])
    }

    @Test func crossThreadCasesAreTimedInFivePartsAndTheOthersWhole() {
        #expect(
            BenchCases.all.filter { $0.partsPerRound == 5 }.map(\.id)
                == ["op.async", "opqueue.batch", "opqueue.wait", "dispatch.async", "task.await"])
        #expect(BenchCases.all.allSatisfy { $0.partsPerRound == 1 || $0.partsPerRound == 5 })
    }

    @Test func aRoundInPartsRunsEachPartWithItsShareOfTheOperations() {
        let calls = LockedState<[Int]>([])
        let runner = BenchRunner(config: .smoke(iterations: 1))
        let nanoseconds = runner.sample(
            { iterations in calls.withLock { $0.append(iterations) } }, iterations: 30, parts: 3)
        #expect(calls.withLock { $0 } == [10, 10, 10])
        #expect(nanoseconds.isFinite && nanoseconds >= 0)
        // Fewer operations than parts: timed whole.
        calls.withLock { $0.removeAll() }
        _ = runner.sample({ iterations in calls.withLock { $0.append(iterations) } }, iterations: 2, parts: 3)
        #expect(calls.withLock { $0 } == [2])
    }

    @Test(arguments: [1_000, 10_000])
    func theRenderTracesAreValidAndHaveTheirMessageCount(messages: Int) throws {
        let trace = RenderCases.trace(messages: messages)
        #expect(trace.messages.count == messages)
        #expect(Set(trace.participants.filter { $0.kind != .caller }.map(\.id)).count == 8)
        try trace.validate()
    }

    @Test func everyReferenceNamesACaseOfTheTable() {
        for benchCase in BenchCases.all {
            if let reference = benchCase.reference {
                #expect(BenchCases.named(reference) != nil, "\(benchCase.id) refers to \(reference)")
            }
        }
    }

    @Test func theJSONOutputParsesWithTheRequiredKeys() async throws {
        // Both shapes of entry (a timed case with a reference, memory) — skipped cases are
        // covered below — without rendering thousands of messages again in a debug build.
        let results = await Self.smokeRun(["op.sync", "memory.1M"])
        let json = BenchReport.json(results)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let objects = try #require(parsed as? [[String: Any]])
        #expect(objects.count == results.count)
        for object in objects {
            let id = try #require(object["case"] as? String)
            #expect(object.keys.contains("reference"), "\(id)")
            #expect(object.keys.contains("ratio"), "\(id)")
            if id == "memory.1M" {
                #expect(object["bytes"] is NSNumber, "\(id)")
                #expect(object["nsPerOp"] == nil, "\(id)")
            } else if BenchCases.named(id)?.isSlow == true {
                #expect(object["nsPerOp"] is NSNull, "\(id)")
                #expect(object["skipped"] as? Bool == true, "\(id)")
            } else if BenchCases.named(id)?.isAvailable == true {
                #expect(object["nsPerOp"] is NSNumber, "\(id)")
            } else {
                #expect(object["nsPerOp"] is NSNull, "\(id)")
                #expect(object["available"] as? Bool == false, "\(id)")
            }
        }
        let opSync = try #require(objects.first { $0["case"] as? String == "op.sync" })
        #expect(opSync["reference"] as? String == "baseline.selfRetain")
        #expect(opSync["ratio"] is NSNumber)
    }

    @Test func quickRunsSkipTheSlowCaseAndSaySo() throws {
        let slow = try #require(BenchCases.named("render.100k"))
        #expect(BenchRunner(config: .quick).measure(slow) == .skipped)
        let result = BenchResult(benchCase: slow, figure: .skipped, referenceFigure: 40_000_000)
        #expect(BenchReport.table([result]).contains("skipped in quick mode"))
        #expect(result.ratio == nil && result.isMet == nil)
    }

    @Test func aMissingPieceIsListedAsNotAvailable() {
        let missing = BenchCase.unavailable("x.missing", "a case whose piece is not in the build", reference: "op.sync")
        let result = BenchResult(benchCase: missing, figure: .unavailable, referenceFigure: 40)
        #expect(BenchReport.table([result]).contains("not available in this build"))
        #expect(result.ratio == nil && result.isMet == nil)
    }

    @Test(arguments: [
        (["--quick", "--json"], BenchOptions(quick: true, json: true)),
        (["--case", "op.sync", "bridge.await"], BenchOptions(cases: ["op.sync", "bridge.await"])),
        (["--case", "op.sync,memory.1M", "--json"], BenchOptions(json: true, cases: ["op.sync", "memory.1M"])),
        (["--iterations", "10"], BenchOptions(iterations: 10)),
        (["-h"], BenchOptions(help: true)),
    ])
    func optionsParse(arguments: [String], expected: BenchOptions) throws {
        #expect(try BenchOptions.parse(arguments) == expected)
    }

    @Test(arguments: [["--nope"], ["--case"], ["--case", "nope"], ["--iterations", "0"], ["--iterations"]])
    func usageErrorsExitWithTwo(arguments: [String]) {
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions.parse(arguments) }
        #expect(BenchCommand.run(arguments: arguments) == 2)
    }

    @Test func ratiosAndTargetsAreJudgedFromTheReference() {
        #expect(BenchTarget.ratioAtMost(1.5).isMet(by: 60, ratio: 60.0 / 46) == true)
        #expect(BenchTarget.ratioAtMost(1.5).isMet(by: 70, ratio: 70.0 / 46) == false)
        #expect(BenchTarget.atMost(nanoseconds: 20_000_000).isMet(by: 25_000_000, ratio: nil) == false)
        #expect(BenchTarget.bytesBelow(1_000_000).isMet(by: 4_096, ratio: nil) == true)
        #expect(BenchTarget.ratioAtMost(1.5).isMet(by: 60, ratio: nil) == nil)
    }

    /// A ratio is taken round by round: a round in which the machine was slow for both cases
    /// gives the same ratio as a quiet one, where the ratio of the medians would not.
    @Test func ratiosArePairedRoundByRound() {
        let reference = BenchCase.timed("ref", "reference") { _ in }
        let measured = BenchCase.timed("case", "measured", reference: "ref", targets: [.ratioAtMost(2.1)]) { _ in }
        var result = BenchResult(benchCase: measured, figure: .nanosecondsPerOperation(40), referenceFigure: 10)
        result.samples = [20, 40, 80]
        result.roundRatios = [2, 2, 2]
        #expect(result.ratio == 2)  // not 40 / 10
        #expect(result.spread == 20...80)
        #expect(result.isMet == true)
        _ = reference
    }

    @Test func aRunInterleavesEveryCaseIntoEveryRound() async {
        let results = await Self.smokeRun(["op.sync"])
        let opSync = results.first { $0.benchCase.id == "op.sync" }
        #expect(opSync?.samples.count == BenchConfig.smoke(iterations: 1).rounds)
        #expect(opSync?.roundRatios.count == BenchConfig.smoke(iterations: 1).rounds)
    }

    /// The bench blocks its thread while async cases run on the cooperative pool, so it runs on
    /// a thread of its own, never on one of the pool's.
    /// One operation per case (the debug build renders thousands of messages slowly); the
    /// tests check that every case runs and reports, not how fast.
    private static func smokeRun(_ selection: [String] = []) async -> [BenchResult] {
        await OwnThread.run {
            BenchResult.run(BenchCases.closure(of: selection), config: .smoke(iterations: 1))
        }
    }
}
