import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Synchronization
import Testing

/// Issue 36: a failed run does not re-read what it wrote. Its last step overwrites the run's
/// journal on disk with a line that is not a journal before it fails; the run's end still says
/// what the run recorded (the steps it undid, when it started), because it reads the history
/// its journal wrote, not the file.
struct FailedRunEndReadsItsHistoryTests {
    /// Opens an account (with side effects, so it can be undone) and closes it.
    final class AccountOp: Op {
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input)
        }
    }

    /// Spoils every journal of the state directory, then fails.
    final class SpoilingOp: PureOp {
        static let failure = "the card was declined"
        let stateDirectory: URL

        init(stateDirectory: URL) { self.stateDirectory = stateDirectory }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            let runs = stateDirectory.appendingPathComponent("runs", isDirectory: true)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runs.path)) ?? []
            for name in names where name.hasSuffix(".jsonl") && !name.hasSuffix(".trace.jsonl") {
                try? Data("not a journal\n".utf8).write(to: runs.appendingPathComponent(name))
            }
            completion.fail(CLIError.message(Self.failure))
        }
    }

    enum LedgerProgram: RunnerProgram {
        static let configuration = RunnerConfiguration(
            name: "ledger", version: "1", overview: "Opens an account.", examples: ["ledger run open"],
            scenarios: [ScenarioListing(name: "open", summary: "Open", isScenario: true)],
            shapes: { _, _ in [scenario(URL(fileURLWithPath: "/")).shape] },
            prepareRun: { prepared($0.stateDirectory) },
            prepareRerun: { request, _ in prepared(request.stateDirectory) }
        ).with { program in
            program.commands = [RunScenario<Self>.self]
            program.runnableName = { ["open", "Open"].contains($0) ? "Open" : nil }
        }

        static func scenario(_ stateDirectory: URL) -> Scenario<Int, Int> {
            Scenario("Open") { chain in
                chain.then(Step("Account") { AccountOp() }.compensated(by: Step("Close") { AccountOp() }))
                    .then(Step("Pay") { SpoilingOp(stateDirectory: stateDirectory) })
            }
        }

        private static func prepared(_ stateDirectory: URL) -> PreparedRun<Int> {
            let scenario = scenario(stateDirectory)
            let one: @Sendable () throws -> Int? = { 1 }
            return PreparedRun(shape: scenario.shape, makeInput: one) { context, onFinish in
                scenario.launch(context.with(input: context.input ?? 1)) { result in
                    onFinish(result.map { RunOutcome(sentence: "Opened \($0).") })
                }
            }
        }
    }

    private func ledger(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let out = Mutex("")
        let err = Mutex("")
        let console = Console(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } },
            readLine: { nil }, inputIsTerminal: false, errorIsTerminal: false, environment: ["NO_COLOR": "1"])
        let status = RunnerMain<LedgerProgram>.main(arguments, console: console)
        return (status, out.withLock { $0 }, err.withLock { $0 })
    }

    @Test func theEndOfAFailedRunSaysWhatItsJournalWroteWithoutReadingTheFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("failed-run-end-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let run = ledger(["run", "open", "--state-dir", directory.path])
        #expect(run.status == ExitStatus.failure, "\(run)")
        #expect(run.stderr.contains("ledger: Pay failed: \(SpoilingOp.failure)"), "\(run.stderr)")
        #expect(run.stderr.contains("\nUndone: Account.\n"), "the undoing, from the history: \(run.stderr)")
        #expect(!run.stderr.contains("to rerun:"), "an undone run is over: \(run.stderr)")

        let json = ledger(["run", "open", "--state-dir", directory.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["startedAt"] is String, "when it started, from the history: \(object)")
        #expect(object["failedStep"] as? String == "Pay", "\(object)")
    }
}
