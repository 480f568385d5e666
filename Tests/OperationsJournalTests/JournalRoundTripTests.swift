import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

extension JournalTests {
    @Suite struct JournalRoundTripTests {
        private func chain() -> Scenario<Int, String> {
            Scenario("Chain") { chain in
                chain.then(Step { DoubleOp() }).then(Step("Again") { DoubleOp() }).then(Step { DescribeOp() })
            }
        }

        @Test func aSucceededRunReadsBackWithItsStepsAndOutput() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Chain")
                #expect(run(chain(), 3, environment: OpEnvironment(observer: journal))?.success == "#12")
                try journal.close()

                let record = try store.load(journal.runID)
                #expect(record.runID == journal.runID)
                #expect(record.scenario == "Chain")
                #expect(record.status == .succeeded)
                #expect(record.failedStep == nil)
                #expect(record.error == nil)
                #expect(record.sessions == 1)
                #expect(!record.ignoredTornLine)
                #expect(record.startedAt != nil && record.finishedAt != nil)
                #expect(try record.input(as: Int.self) == 3)
                #expect(try record.output(as: String.self) == "#12")
                #expect(
                    record.steps.map(\.address) == [
                        StepAddress((0, "DoubleOp")), StepAddress((1, "Again")), StepAddress((2, "DescribeOp")),
                    ])
                #expect(record.steps.map(\.outcome) == [.succeeded, .succeeded, .succeeded])
                #expect(record.steps.map { $0.attempts.map(\.outcome) } == [[.succeeded], [.succeeded], [.succeeded]])
                #expect(record.steps.allSatisfy { $0.attempts.first?.duration != nil })
            }
        }

        @Test func theFileIsAHeaderThenOneEventPerLine() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("run.jsonl")
                let id = try RunID(validating: "20250101-120000-000-00000001")
                let journal = try ScenarioJournal.create(at: url, runID: id, scenario: "Chain")
                _ = run(chain(), 3, environment: OpEnvironment(observer: journal))
                try journal.close()

                let lines = try journalLines(url)
                let header = try #require(lines.first)
                #expect(header["format"] as? String == "operations.journal")
                #expect(header["version"] as? Int == 1)
                #expect(header["run"] as? String == "20250101-120000-000-00000001")
                #expect(header["scenario"] as? String == "Chain")
                #expect(header["createdAt"] is String)
                #expect(
                    try eventNames(in: url) == [
                        "runStarted", "stepLaunched", "stepSucceeded", "stepLaunched", "stepSucceeded", "stepLaunched",
                        "stepSucceeded", "runFinished",
                    ])
                let launched = lines[2]
                #expect(launched["attempt"] as? Int == 1)
                #expect(launched["input"] as? Int == 3)
                #expect((launched["address"] as? [[String: Any]])?.first?["name"] as? String == "DoubleOp")
                #expect(lines[7]["output"] as? String == "#12")
                #expect(lines[8]["status"] as? String == "succeeded")
            }
        }

        @Test func retriedAttemptsAndTheirErrorsAreRecorded() throws {
            try withTemporaryDirectory { directory in
                let ops = ScriptedOps([.failure(.flaky), .success(7)])
                let scenario = Scenario<Int, Int>("Retry") { chain in
                    chain.then(Step("Flaky", ops.make).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
                }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Retry")
                #expect(run(scenario, 1, environment: OpEnvironment(observer: journal))?.success == 7)
                try journal.close()

                let step = try #require(try ScenarioJournal.load(journal.url).steps.first)
                let flaky = RecordedError(TestError.flaky)
                #expect(step.attempts.map(\.outcome) == [.failed(flaky, willRetry: true), .succeeded])
                #expect(step.attempts.map(\.attempt) == [1, 2])
                #expect(flaky.isTransient && flaky.type == "TestError" && flaky.description == "flaky")
            }
        }

        @Test func nestedScenarioStepsAreRecordedAtTheirAddresses() throws {
            try withTemporaryDirectory { directory in
                let inner = Scenario<Int, Int>("Inner") { chain in
                    chain.then(Step { DoubleOp() }).then(Step { DoubleOp() })
                }
                let outer = Scenario<Int, String>("Outer") { chain in
                    chain.then(Step("Inner", purity: .pure) { inner }).then(Step { DescribeOp() })
                }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Outer")
                #expect(run(outer, 1, environment: OpEnvironment(observer: journal))?.success == "#4")
                try journal.close()

                let record = try ScenarioJournal.load(journal.url)
                #expect(record.status == .succeeded)
                #expect(
                    record.steps.map(\.address.description) == [
                        "0.Inner", "0.Inner/0.DoubleOp", "0.Inner/1.DoubleOp", "1.DescribeOp",
                    ])
                // The nested scenario's own start and finish are its step's launch and success.
                #expect(
                    try eventNames(in: journal.url).filter { $0.hasPrefix("run") } == ["runStarted", "runFinished"])
            }
        }

        @Test func skippedStepsAreRecorded() throws {
            try withTemporaryDirectory { directory in
                let scenario = Scenario<Int, Int>("Branch") { chain in
                    chain.then(Step("Terms") { DoubleOp() }, when: { $0 > 10 }).then(Step { DoubleOp() })
                }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Branch")
                _ = run(scenario, 3, environment: OpEnvironment(observer: journal))
                try journal.close()
                let record = try ScenarioJournal.load(journal.url)
                #expect(record.steps.map(\.outcome) == [.skipped, .succeeded])
                #expect(record.steps.first?.attempts.isEmpty == true)
            }
        }

        @Test func aValueThatIsNotEncodableIsNotedAndItsStepRunsAgainOnResume() throws {
            try withTemporaryDirectory { directory in
                let wraps = Counter()
                let failing = ScriptedOps([.failure(.broken)])
                let scenario = Scenario<Int, Int>("Opaque") { chain in
                    chain.then(Step("Wrap") { WrapOp(launches: wraps) }).then(Step { UnwrapOp() })
                        .then(Step("Last", failing.make))
                }
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Opaque")
                #expect(run(scenario, 5, environment: OpEnvironment(observer: journal))?.failure != nil)
                try journal.close()

                let wrapped = try #require(
                    try journalLines(journal.url).first { $0["event"] as? String == "stepSucceeded" })
                #expect(wrapped["output"] == nil)
                #expect(wrapped["outputNotRecorded"] as? String == "Opaque is not Encodable")

                let resumed = try store.resume(journal.runID)
                let recorder = ScenarioRecorder()
                let environment = OpEnvironment(
                    observer: ObserverGroup([resumed, recorder]), replay: resumed.replay)
                #expect(run(scenario, 5, environment: environment)?.success == 5)
                try resumed.close()
                #expect(wraps.count == 2)
                // Unwrap's Int output was recorded, but the step before it ran again: the run
                // follows the chain, so it replays what it can and launches what it must.
                #expect(recorder.stepLines.first == "Wrap launched #1")
            }
        }

        @Test(arguments: ["plain", "quote \" backslash \\ slash /", "line\nbreak\ttab\u{1}", "ünïcødé ✓ 🚀", ""])
        func textValuesRoundTripExactly(text: String) throws {
            final class EchoOp: PureOp {
                func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<String>) {
                    Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input)
                }
            }
            try withTemporaryDirectory { directory in
                let scenario = Scenario<String, String>("Echo") { chain in chain.then(Step { EchoOp() }) }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Echo")
                _ = run(scenario, text, environment: OpEnvironment(observer: journal))
                try journal.close()
                let record = try ScenarioJournal.load(journal.url)
                #expect(try record.input(as: String.self) == text)
                #expect(try record.output(as: String.self) == text)
                #expect(
                    try JournalReplay(record).recordedOutput(at: StepAddress((0, "EchoOp")), as: String.self) == text)
            }
        }

        @Test func structuredValuesRoundTripThroughCodable() throws {
            struct Token: Codable, Sendable, Equatable {
                let value: String
                let expires: Date
                let scopes: [String]
                let refresh: Int64?
            }
            final class IssueOp: PureOp {
                func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Token>) {
                    let token = Token(
                        value: "secret", expires: Date(timeIntervalSince1970: 1_735_732_800.5), scopes: ["a", "b"],
                        refresh: Int64.max)
                    Completion(retaining: self, context: context, onFinish: onFinish).succeed(token)
                }
            }
            try withTemporaryDirectory { directory in
                let scenario = Scenario<Int, Token>("Issue") { chain in chain.then(Step { IssueOp() }) }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Issue")
                let issued = try #require(run(scenario, 1, environment: OpEnvironment(observer: journal))?.success)
                try journal.close()
                let replayed = try JournalReplay(ScenarioJournal.load(journal.url))
                    .recordedOutput(at: StepAddress((0, "IssueOp")), as: Token.self)
                #expect(replayed == issued)
            }
        }

        @Test func voidOutputsAreRecordedAndReplayed() throws {
            final class NothingOp: PureOp {
                func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Void>) {
                    Completion(retaining: self, context: context, onFinish: onFinish).succeed(())
                }
            }
            try withTemporaryDirectory { directory in
                let scenario = Scenario<Int, Void>("Void") { chain in chain.then(Step { NothingOp() }) }
                let journal = try RunStore(stateDirectory: directory).create(scenario: "Void")
                _ = run(scenario, 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let record = try ScenarioJournal.load(journal.url)
                let replay = JournalReplay(record)
                #expect(try replay.recordedOutput(at: StepAddress((0, "NothingOp")), as: Void.self) != nil)
                #expect(try replay.recordedOutput(at: StepAddress((1, "Missing")), as: Void.self) == nil)
            }
        }
    }
}
