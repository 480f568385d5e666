import Foundation
import Operations
import OperationsTestSupport
import Testing

// Compensation.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks).

// Compensation example begin
/// Opening an account: open it, then check the applicant; a refusal closes the account again.
enum Onboarding {
    struct Applicant: Sendable, Codable, Equatable {
        var name: String
        var age: Int
    }

    struct Account: Sendable, Codable, Equatable {
        var id: String
        var owner: Applicant
    }

    enum OnboardingError: Error, Codable, Equatable {
        case bankClosed
        case underage(minimumAge: Int)
    }

    protocol Bank: Sendable {
        func open(for applicant: Applicant, idempotencyKey: IdempotencyKey?) throws -> Account
        func close(_ account: Account, idempotencyKey: IdempotencyKey?) throws
    }

    final class OpenAccountOp: Op {
        private let bank: any Bank
        init(bank: any Bank) { self.bank = bank }

        func launch(_ context: OpContext<Applicant>, onFinish: @escaping OnFinish<Account>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(Result { try bank.open(for: context.input, idempotencyKey: context.idempotencyKey) })
        }
    }

    final class CloseAccountOp: Op {
        private let bank: any Bank
        init(bank: any Bank) { self.bank = bank }

        func launch(_ context: OpContext<Account>, onFinish: @escaping OnFinish<Void>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(Result { try bank.close(context.input, idempotencyKey: context.idempotencyKey) })
        }
    }

    /// Refuses an applicant under 18 — after the account was opened.
    final class CheckAgeOp: PureOp {
        func launch(_ context: OpContext<Account>, onFinish: @escaping OnFinish<Account>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(
                Result {
                    guard context.input.owner.age >= 18 else { throw OnboardingError.underage(minimumAge: 18) }
                    return context.input
                })
        }
    }

    static func onboarding(bank: any Bank) -> Scenario<Applicant, Account> {
        Scenario("Onboarding") { chain in
            chain
                .then(Step { OpenAccountOp(bank: bank) }.compensated(by: Step { CloseAccountOp(bank: bank) }))
                .then(Step { CheckAgeOp() })
        }
    }

    enum Outcome: Equatable {
        case opened(Account)
        /// Refused after the account was opened: it was closed again.
        case closedAgain(because: String)
        /// Refused before any account existed.
        case neverOpened(because: String)
    }

    /// What the app shows: the failure itself says whether the account was opened and closed.
    static func onboard(_ applicant: Applicant, bank: any Bank) async -> Outcome {
        do {
            return .opened(try await onboarding(bank: bank).launch(with: applicant))
        } catch let failure as StepFailure {
            let reason = "\(failure.rootCause)"
            let closed = failure.undoneSteps.contains { $0.step == "OpenAccountOp" }
            return closed ? .closedAgain(because: reason) : .neverOpened(because: reason)
        } catch {
            return .neverOpened(because: "\(error)")
        }
    }
}
// Compensation example end

/// A bank that opens accounts unless it is closed, and remembers what it closed.
private final class Branch: Onboarding.Bank, @unchecked Sendable {
    private let lock = NSLock()
    private let isClosed: Bool
    private var closed: [String] = []

    init(isClosed: Bool = false) { self.isClosed = isClosed }

    var closedAccounts: [String] { lock.withLock { closed } }

    func open(for applicant: Onboarding.Applicant, idempotencyKey: IdempotencyKey?) throws -> Onboarding.Account {
        guard !isClosed else { throw Onboarding.OnboardingError.bankClosed }
        return Onboarding.Account(id: "A-\(applicant.name)", owner: applicant)
    }

    func close(_ account: Onboarding.Account, idempotencyKey: IdempotencyKey?) throws {
        lock.withLock { closed.append(account.id) }
    }
}

struct CompensationExampleTests {
    @Test func anAdultGetsAnAccount() async {
        let outcome = await Onboarding.onboard(Onboarding.Applicant(name: "ada", age: 36), bank: Branch())
        #expect(outcome == .opened(Onboarding.Account(id: "A-ada", owner: Onboarding.Applicant(name: "ada", age: 36))))
    }

    @Test func aMinorsAccountIsOpenedThenClosedAgain() async {
        let bank = Branch()
        let outcome = await Onboarding.onboard(Onboarding.Applicant(name: "tim", age: 15), bank: bank)
        #expect(outcome == .closedAgain(because: "underage(minimumAge: 18)"))
        #expect(bank.closedAccounts == ["A-tim"])
    }

    @Test func anAccountTheBankRefusedWasNeverOpened() async {
        let bank = Branch(isClosed: true)
        let outcome = await Onboarding.onboard(Onboarding.Applicant(name: "tim", age: 15), bank: bank)
        #expect(outcome == .neverOpened(because: "bankClosed"))
        #expect(bank.closedAccounts.isEmpty)
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("Compensation", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/Compensation.md")
        #expect(ArticleText.shows(example, importing: ["Foundation", "Operations"], in: article))
    }
}
