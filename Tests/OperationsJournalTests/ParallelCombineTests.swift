import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// A parallel step keeps the value it was given and combines it with its branches' outputs,
/// and its outputs are journaled as one array when every branch's output can be, or said to be
/// recorded at each branch, in words that do not read as an error.
struct ParallelCombineTests {
    /// A value no journal can encode.
    struct Handle: Sendable {}

    /// A secret a parallel step's journal line must not hold in clear.
    struct Token: Codable, Sendable, JournalConfidential {
        let value: String
    }

    /// A pure operation that finishes with `output`, whatever its input.
    final class ConstantOp<Output: Sendable>: PureOp {
        let output: Output

        init(_ output: Output) {
            self.output = output
        }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Output>) {
            Completion(retaining: self, context: context, onFinish: onFinish).succeed(output)
        }
    }

    @Test func combineGetsTheValueTheStepWasGivenAndEveryBranchOutput() throws {
        let scenario = Scenario<Int, String>("Both") { chain in
            chain.parallel("DoubleAndDescribe", Step("Double") { DoubleOp() }, Step("Describe") { DescribeOp() }) {
                given, doubled, described in "\(given) → \(doubled), \(described)"
            }
        }
        #expect(try LaunchProbe.launch(scenario, input: 3).value() == "3 → 6, #3")
    }

    @Test func aListOfBranchesCombinesWithTheValueToo() throws {
        let ledger = EffectLedger()
        let scenario = Scenario<Int, Int>("Fan") { chain in
            chain.parallel("Each", (0..<3).map { ledger.step("B\($0)") }) { given, outputs in
                given * 100 + outputs.reduce(0, +)
            }
        }
        #expect(try LaunchProbe.launch(scenario, input: 1).value() == 106)
    }

    @Test func combiningKeepsTheShapeOfTheStepAMapAfterItHad() throws {
        let mapped = Scenario<Int, String>("Both") { chain in
            chain.parallel("Pair", Step("Double") { DoubleOp() }, Step("Describe") { DescribeOp() })
                .map { doubled, described in "\(doubled) \(described)" }
        }
        let combined = Scenario<Int, String>("Both") { chain in
            chain.parallel("Pair", Step("Double") { DoubleOp() }, Step("Describe") { DescribeOp() }) {
                _, doubled, described in "\(doubled) \(described)"
            }
        }
        #expect(combined.shape == mapped.shape, "a journal of the one resumes with the other")
        #expect(combined.shape.fingerprint == mapped.shape.fingerprint)
        #expect(combined.shape.steps.first?.output == "(Int, String)")
    }

    @Test func aRerunReplaysTheBranchesAndCombinesWithTheValueAgain() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            func scenario(_ ledger: EffectLedger) -> Scenario<Int, Int> {
                Scenario("Fan") { chain in
                    chain
                        .then(ledger.step("Before"))
                        .parallel("Two", ledger.step("A"), ledger.step("B")) { given, a, b in given * 100 + a + b }
                }
            }
            let journal = try store.create(scenario: scenario(EffectLedger()))
            scenario(EffectLedger(["B": [.hang]])).launch(OpContext(1, environment: OpEnvironment(observer: journal))) {
                _ in
            }
            try journal.close()

            let second = EffectLedger()
            let resumed = try store.resume(journal.runID, scenario: scenario(second))
            let result = run(scenario(second), 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            #expect(second.names == ["B"], "Before and A are replayed")
            #expect(result?.success == 2 * 100 + 3 + 3)
        }
    }

    @Test func aRerunStillUndoesABranchOfAParallelStepWhoseOutputsWereJournaled() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            func scenario(_ ledger: EffectLedger) -> Scenario<Int, Int> {
                Scenario("Fan") { chain in
                    chain
                        .parallel("Both", ledger.step("Hold").compensated(by: ledger.step("Free")), ledger.step("Note"))
                    {
                        _, held, _ in held
                    }
                        .then(ledger.step("Confirm"))
                }
            }
            let journal = try store.create(scenario: scenario(EffectLedger()))
            scenario(EffectLedger(["Confirm": [.hang]])).launch(
                OpContext(1, environment: OpEnvironment(observer: journal))
            ) { _ in }
            try journal.close()

            let second = EffectLedger(["Confirm": [.fail(.broken)]])
            let resumed = try store.resume(journal.runID, scenario: scenario(second))
            let result = run(scenario(second), 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            #expect(second.names == ["Confirm", "Free"], "the held branch is replayed, and undone")
            let failure = try #require(result?.failure as? StepFailure)
            #expect(failure.undoneSteps.map(\.address.description) == ["0.Both/0.Hold"])
        }
    }

    // MARK: - The journal

    /// The `stepSucceeded` line of the top-level step `name` in the journal of one run of
    /// `scenario` with `input`.
    private func succeededLine<Output>(
        of name: String, running scenario: Scenario<Int, Output>, sealer: (any JournalSealer)? = nil
    ) throws -> (line: [String: Any], text: String) {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory, sealer: sealer)
            let journal = try store.create(scenario: scenario)
            _ = run(scenario, 1, environment: OpEnvironment(observer: journal))
            try journal.close()
            let url = store.url(for: journal.runID)
            let line = try #require(
                try journalLines(url).first { line in
                    line["event"] as? String == "stepSucceeded"
                        && (line["address"] as? [[String: Any]])?.map { $0["name"] as? String } == [name]
                })
            return (line, try String(contentsOf: url, encoding: .utf8))
        }
    }

    @Test func aTupleOfEncodableOutputsIsJournaledAsAnArrayInBranchOrder() throws {
        let ledger = EffectLedger()
        let scenario = Scenario<Int, (Int, String, Void)>("Three") { chain in
            chain.parallel(
                "Each", ledger.step("Add"), Step("Describe") { DescribeOp() }, Step("Nothing") { ConstantOp(()) })
        }
        let (line, _) = try succeededLine(of: "Each", running: scenario)
        let output = try #require(line["output"] as? [Any], "recorded: \(line)")
        #expect(output.count == 3)
        #expect(output[0] as? Int == 2)
        #expect(output[1] as? String == "#1")
        #expect(output[2] is NSNull, "a branch that finishes with nothing is null")
        #expect(line["outputNotRecorded"] == nil)
    }

    @Test func aListOfOutputsIsJournaledAsAnArrayToo() throws {
        let ledger = EffectLedger()
        let scenario = Scenario<Int, [Int]>("Fan") { chain in
            chain.parallel("Each", (0..<3).map { ledger.step("B\($0)") })
        }
        let (line, _) = try succeededLine(of: "Each", running: scenario)
        #expect(line["output"] as? [Int] == [2, 2, 2])
    }

    @Test func outputsThatCannotAllBeEncodedAreSaidToBeRecordedAtEachBranch() throws {
        let scenario = Scenario<Int, (Int, Handle)>("Pair") { chain in
            chain.parallel("Both", Step("Double") { DoubleOp() }, Step("Open") { ConstantOp(Handle()) })
        }
        let (line, _) = try succeededLine(of: "Both", running: scenario)
        #expect(line["output"] == nil)
        #expect(
            line["outputNotRecorded"] as? String
                == "recorded at each branch, not as a whole: Open's output Handle is not Encodable")
    }

    @Test func aConfidentialBranchOutputIsNeverJournaledInClear() throws {
        let scenario = Scenario<Int, (Int, Token)>("Pair") { chain in
            chain.parallel("Both", Step("Double") { DoubleOp() }, Step("Issue") { ConstantOp(Token(value: "s3cr3t")) })
        }
        let (withheld, text) = try succeededLine(of: "Both", running: scenario)
        #expect(!text.contains("s3cr3t"))
        let recorded = try #require(withheld["outputWithConfidentialFields"] as? [String: Any], "\(withheld)")
        #expect(recorded["confidential"] as? [String] == ["/1"])
        let sealer = XORSealer(key: 0x5A)
        let (sealed, sealedText) = try succeededLine(of: "Both", running: scenario, sealer: sealer)
        #expect(!sealedText.contains("s3cr3t"))
        #expect(sealed["outputWithConfidentialFields"] != nil)
    }
}
