import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

// RerunsAndTheJournal.md's example of an app's error read back from the journal, compiled: the
// block between the markers below must be the article's code block byte for byte (the last test
// checks). It reads runs of the onboarding in CompensationExample.swift.

// MatchingErrors example begin
/// What the app says of an onboarding run, from its journal, whichever process ran it.
enum OnboardingHistory {
    static func explain(_ runID: RunID, in store: RunStore) throws -> String {
        let record = try store.load(runID)
        guard record.status == .failed, let error = record.error else { return "\(record.status)" }
        let closed = record.undone.contains { $0.step == "OpenAccountOp" }
        switch error.decode(as: Onboarding.OnboardingError.self) {
        case .underage(let age)?:
            return closed ? "Under \(age): the account was closed again." : "Under \(age)."
        case .bankClosed?:
            return "The bank was closed."
        case nil:
            return "Failed: \(error)"
        }
    }

    /// The same question of a failure in hand: one the operation threw in this process, or one
    /// a rerun failed again from the journal.
    static func isUnderage(_ error: any Error) -> Bool {
        if case .underage? = RecordedError.cause(of: error, as: Onboarding.OnboardingError.self) { return true }
        return false
    }
}
// MatchingErrors example end

/// A bank that opens every account and closes any.
private struct OpenBank: Onboarding.Bank {
    func open(for applicant: Onboarding.Applicant, idempotencyKey: IdempotencyKey?) throws -> Onboarding.Account {
        Onboarding.Account(id: "A-\(applicant.name)", owner: applicant)
    }

    func close(_ account: Onboarding.Account, idempotencyKey: IdempotencyKey?) throws {}
}

struct MatchingErrorsExampleTests {
    @Test func theJournalOfAnUndoneRunSaysWhatWasUndoneAndWhy() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("article-errors-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = RunStore(stateDirectory: directory)
        let scenario = Onboarding.onboarding(bank: OpenBank())
        let journal = try store.create(scenario: scenario)
        let minor = Onboarding.Applicant(name: "tim", age: 15)
        let live = await #expect(throws: StepFailure.self) {
            try await scenario.launch(with: minor, environment: OpEnvironment(observer: journal))
        }
        try journal.close()

        #expect(try OnboardingHistory.explain(journal.runID, in: store) == "Under 18: the account was closed again.")
        #expect(OnboardingHistory.isUnderage(try #require(live)))
        let recorded = try #require(try store.load(journal.runID).error)
        #expect(OnboardingHistory.isUnderage(recorded), "the journal's copy matches as the live error does")
        #expect(!OnboardingHistory.isUnderage(TestError.broken))
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("MatchingErrors", in: #filePath)
        let article = try ArticleText.article("Sources/OperationsJournal/OperationsJournal.docc/RerunsAndTheJournal.md")
        #expect(ArticleText.shows(example, importing: ["Foundation", "Operations", "OperationsJournal"], in: article))
    }
}
