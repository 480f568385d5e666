import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import OperationsTestSupport
import Synchronization
import Testing

/// Issue 26, point 4: a runner program that gives a sealer (``RunnerConfiguration/journalSealer``)
/// seals the confidential field of a value in every run the runner creates, and every command
/// that opens the journal — `rerun`, `check`, `show` — opens it with the same sealer: the
/// rerun replays the value, so the screen that made it is not shown again.
struct SealedRunnerTests {
    static let iban = "DE89370400440532013000"

    struct Account: Codable, Sendable, Hashable, JournalConfidential {
        let iban: String
    }

    /// What the screen gives: a reference in clear and the account, confidential.
    struct Payout: Codable, Sendable, Hashable {
        let reference: String
        let account: Account
    }

    /// What the program's runs did, counted across `run` and `rerun`.
    struct Counts: Sendable, Equatable {
        var screens = 0
        var sends: [Account] = []
    }

    /// Asks the user for the account: the screen a replay must not show again.
    final class AskAccountOp: PureOp {
        func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<Payout>) {
            SealingProgram.counts.withLock { $0.screens += 1 }
            Completion(retaining: self, context: context, onFinish: onFinish)
                .succeed(Payout(reference: "p-\(context.input)", account: Account(iban: SealedRunnerTests.iban)))
        }
    }

    /// Sends the payout; fails while `failing` is set.
    final class SendOp: Op {
        let failing: Bool
        init(failing: Bool) { self.failing = failing }
        func launch(_ context: OpContext<Payout>, onFinish: @escaping OnFinish<String>) {
            SealingProgram.counts.withLock { $0.sends.append(context.input.account) }
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            failing ? completion.fail(TestError.broken) : completion.succeed(context.input.reference)
        }
    }

    enum TestError: Error { case broken }

    /// A program whose runs hold a confidential field, with a sealer.
    enum SealingProgram: RunnerProgram {
        static let counts = Mutex(Counts())
        static let failSend = CommandOption("--fail-send", "Sending fails")
        static let configuration = RunnerConfiguration(
            name: "payout", version: "1", overview: "Pays out.", examples: ["payout run payout"],
            scenarios: [ScenarioListing(name: "payout", summary: "Payout", isScenario: true)],
            shapes: { _, _ in [scenario(failing: false).shape] },
            prepareRun: { request in prepared(failing: request.arguments.has(failSend)) { "7" } },
            prepareRerun: { request, record in
                prepared(failing: false) { try record.input(as: String.self, sealer: request.sealer) }
            }
        ).with { program in
            program.commands = [
                RunScenario<Self>.self, RerunScenario<Self>.self, ShowRun<Self>.self, CheckRuns<Self>.self,
            ]
            program.runnableName = { ["payout", "Payout"].contains($0) ? "Payout" : nil }
            program.journalSealer = XORSealer(key: 0x2C)
            program.run = RunnerConfiguration.Launch(options: [failSend])
        }

        static func scenario(failing: Bool) -> Scenario<String, String> {
            Scenario("Payout") { chain in
                chain
                    .then(Step("AskAccount") { AskAccountOp() })
                    .then(Step("Send") { SendOp(failing: failing) })
            }
        }

        private static func prepared(failing: Bool, input: @escaping @Sendable () throws -> String?)
            -> PreparedRun<String>
        {
            let scenario = scenario(failing: failing)
            return PreparedRun(shape: scenario.shape, makeInput: input) { context, onFinish in
                guard let payee = context.input else { return onFinish(.failure(TestError.broken)) }
                scenario.launch(context.with(input: payee)) { result in
                    onFinish(result.map { RunOutcome(sentence: "Sent \($0).") })
                }
            }
        }
    }

    /// A console whose output goes to `out`, reading nothing.
    private func console(_ out: @escaping @Sendable (String) -> Void = { _ in }) -> Console {
        Console(
            out: out, err: { _ in }, readLine: { nil }, inputIsTerminal: false, errorIsTerminal: false,
            environment: ["NO_COLOR": "1"])
    }

    /// Runs one command line in this process; its exit status and standard output.
    private func payout(_ arguments: [String]) -> (status: Int32, stdout: String) {
        let out = Mutex("")
        let status = RunnerMain<SealingProgram>.main(
            arguments, console: console { text in out.withLock { $0 += text } })
        return (status, out.withLock { $0 })
    }

    @Test func aRerunOfASealedRunReplaysTheSealedValueWithoutShowingTheScreenAgain() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sealed-runner-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        SealingProgram.counts.withLock { $0 = Counts() }

        let run = payout(["run", "payout", "--fail-send", "--state-dir", directory.path, "--json"])
        #expect(run.status == ExitStatus.failure, "\(run.stdout)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let id = try RunID(validating: try #require(object?["id"] as? String))
        let store = RunStore(stateDirectory: directory, sealer: SealingProgram.configuration.journalSealer)
        let text = try String(contentsOf: store.url(for: id), encoding: .utf8)
        #expect(!text.contains(Self.iban), "the account never reaches the journal in clear")
        #expect(text.contains(#"{"value":{"account":{"sealed":"#), "\(text)")
        #expect(text.contains(#""reference":"p-7"}"#), "values are written with their keys sorted: \(text)")

        #expect(payout(["check", "--state-dir", directory.path]).status == ExitStatus.success)
        let otherKey = try RunStore(stateDirectory: directory, sealer: XORSealer(key: 0x01))
            .checkResumable(by: SealingProgram.configuration.shapes(directory, console()))
        #expect(otherKey.map(\.isStranded) == [true], "a build with another key could not replay the account")

        let rerun = payout(["rerun", id.rawValue, "--state-dir", directory.path])
        #expect(rerun.status == ExitStatus.success, "\(rerun.stdout)")
        #expect(rerun.stdout.contains("Sent p-7."))
        let counts = SealingProgram.counts.withLock { $0 }
        #expect(counts.screens == 1, "the account was replayed from its sealed field, not asked again")
        #expect(counts.sends == [Account(iban: Self.iban), Account(iban: Self.iban)])
        #expect(!(try String(contentsOf: store.url(for: id), encoding: .utf8)).contains(Self.iban))
        #expect(payout(["show", id.rawValue, "--state-dir", directory.path]).stdout.contains("AskAccount: replayed"))
    }
}
