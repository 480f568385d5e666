import Foundation
import Operations
import OperationsTesting
import Testing

// The README's "The engine in one page", compiled: the block between the markers below must be
// the README's code block byte for byte (the test at the end checks), so the README's example
// can never stop compiling.

// README example begin
// A key service, passed in through the initialiser: tests give a stub, the app the real bank.
protocol Bank: Sendable {
    func balance(of account: String) throws -> Int
    func transfer(_ transfer: Transfer, key: IdempotencyKey?) throws -> String
}

struct Transfer: Sendable, Codable, Equatable {
    var from: String
    var to: String
    var amount: Int
}

struct InsufficientFunds: Error {}

// An operation does one thing a person would name; its only interface is launch(_:onFinish:).
// A pure one changes nothing, so the engine may launch it again freely.
final class CheckFundsOp: PureOp {
    private let bank: any Bank
    init(bank: any Bank) { self.bank = bank }

    func launch(_ context: OpContext<Transfer>, onFinish: @escaping OnFinish<Transfer>) {
        // Keeps the operation alive until it finishes, delivers onFinish exactly once, and
        // finishes with .cancelled or .timedOut when the launch is cancelled or runs late.
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(
            Result {
                guard try bank.balance(of: context.input.from) >= context.input.amount else {
                    throw InsufficientFunds()
                }
                return context.input
            })
    }
}

// One with side effects sends its request with the launch's idempotency key, which every
// retry and every rerun of this step repeats: the bank answers a repeat instead of acting twice.
final class TransferOp: Op {
    private let bank: any Bank
    init(bank: any Bank) { self.bank = bank }

    func launch(_ context: OpContext<Transfer>, onFinish: @escaping OnFinish<String>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(Result { try bank.transfer(context.input, key: context.idempotencyKey(for: "transfer")) })
    }
}

// A scenario chains steps: each step's output is the next one's input, checked by the compiler.
// It is an operation itself, so scenarios nest.
func transferScenario(bank: any Bank) -> Scenario<Transfer, String> {
    Scenario("TransferScenario") { chain in
        chain
            .then(Step { CheckFundsOp(bank: bank) })
            .then(Step { TransferOp(bank: bank) }.retrying(.transient(maxAttempts: 3, relaunchesSideEffects: true)))
    }
}
// README example end

/// A bank that keeps balances and answers a repeated key with its first answer.
private final class LedgerBank: Bank, @unchecked Sendable {
    private let lock = NSLock()
    private var balances = ["alice": 100, "bob": 0]
    private var answers: [IdempotencyKey: String] = [:]
    private(set) var transfersMade = 0

    func balance(of account: String) throws -> Int {
        lock.withLock { balances[account] ?? 0 }
    }

    func transfer(_ transfer: Transfer, key: IdempotencyKey?) throws -> String {
        try lock.withLock {
            if let key, let answer = answers[key] { return answer }
            guard (balances[transfer.from] ?? 0) >= transfer.amount else { throw InsufficientFunds() }
            balances[transfer.from, default: 0] -= transfer.amount
            balances[transfer.to, default: 0] += transfer.amount
            transfersMade += 1
            let receipt = "receipt-\(transfersMade)"
            if let key { answers[key] = receipt }
            return receipt
        }
    }
}

struct ReadmeExampleTests {
    @Test func theTransferScenarioMovesMoneyOnce() async throws {
        let bank = LedgerBank()
        let receipt = try await transferScenario(bank: bank).launch(
            with: Transfer(from: "alice", to: "bob", amount: 30))
        #expect(receipt == "receipt-1")
        #expect(try bank.balance(of: "bob") == 30)
        #expect(bank.transfersMade == 1)
    }

    @Test func aTransferBeyondTheBalanceFailsBeforeAnyMoneyMoves() async {
        let bank = LedgerBank()
        await #expect(throws: StepFailure.self) {
            try await transferScenario(bank: bank).launch(with: Transfer(from: "alice", to: "bob", amount: 500))
        }
        #expect(bank.transfersMade == 0)
    }

    @Test func theReadmeShowsThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let example = try #require(
            source.components(separatedBy: "// README example begin\n").last?
                .components(separatedBy: "// README example end").first)
        #expect(readme.contains("```swift\nimport Operations\n\n" + example + "\n// let receipt"))
    }
}
