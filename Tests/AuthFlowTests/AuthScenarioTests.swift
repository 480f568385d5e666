import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import Testing

/// The sign-in scenario against the real client over the simulated backend.
struct AuthScenarioTests {
    @Test func happyPathReturnsAndSavesTheToken() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let report = await harness.signIn()

        expectKeptContract(report)
        let token = try report.value()
        #expect(try harness.storage.loadAuthToken() == token)
        #expect(token.expiresAt == harness.clock.now.addingTimeInterval(30 * 24 * 3600))
        #expect(
            harness.recorder.stepLines == [
                "PhoneOp launched #1", "PhoneOp succeeded #1",
                "VerificationScenario launched #1", "PhoneOp skipped",
                "TermsOfUseOp launched #1", "TermsOfUseOp succeeded #1",
                "CodeOp launched #1", "CodeOp succeeded #1",
                "VerificationScenario succeeded #1",
                "SaveTokenOp launched #1", "SaveTokenOp succeeded #1",
            ])
        #expect(
            harness.backend.requestCounts == [.phone: 1, .terms: 1, .termsAccept: 1, .codeSend: 1, .codeVerify: 1])
        #expect(
            harness.screens.records == [
                .phone(PhoneViewModel(api: modelAPI)), .dismissed, .terms(harness.termsModel), .dismissed,
                .code(SignInHarness.codeModel), .dismissed,
            ])
        #expect(harness.screens.unanswered.isEmpty)
        #expect(harness.diagnostics.diagnostics.isEmpty)
    }

    @Test func termsNotRequiredSkipsTheTermsStep() async throws {
        let harness = SignInHarness(
            termsRequired: false,
            screens: ScriptedScreens(phone: [.submitted(Fixtures.phone)], code: [.submitted(Fixtures.code)]))
        let report = await harness.signIn()

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(
            harness.recorder.stepLines == [
                "PhoneOp launched #1", "PhoneOp succeeded #1",
                "VerificationScenario launched #1", "PhoneOp skipped", "TermsOfUseOp skipped",
                "CodeOp launched #1", "CodeOp succeeded #1",
                "VerificationScenario succeeded #1",
                "SaveTokenOp launched #1", "SaveTokenOp succeeded #1",
            ])
        #expect(harness.backend.requestCount(for: .terms) == 0)
        #expect(harness.backend.requestCount(for: .termsAccept) == 0)
        #expect(harness.screens.unanswered.isEmpty)
    }

    /// What the simulator's scripted outage answers.
    static let unavailable = "The server had a problem (status 503). Try again in 1 second."

    /// The person types the number once: PhoneOp retries the request itself, so the screen is
    /// not shown again for each attempt (`fail=phone:2` sends the request three times).
    @Test func aTransientPhoneFailureRetriesTheRequestNotTheScreen() async throws {
        let harness = SignInHarness(
            faults: [.phone: [.unavailable(times: 2)]],
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let report = await harness.signIn(Fixtures.phone)

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(
            harness.recorder.stepLines == [
                // Each retry of the request is an attempt the run's observers record (the journal,
                // the progress); the launch's own finish ends the last one, and says so.
                "PhoneOp launched #1", "PhoneOp failed #1, retry in 0.0 seconds: \(Self.unavailable)",
                "PhoneOp launched #2", "PhoneOp failed #2, retry in 0.0 seconds: \(Self.unavailable)",
                "PhoneOp launched #3", "PhoneOp succeeded #3",
                "VerificationScenario launched #1", "PhoneOp skipped",
                "TermsOfUseOp launched #1", "TermsOfUseOp succeeded #1",
                "CodeOp launched #1", "CodeOp succeeded #1",
                "VerificationScenario succeeded #1",
                "SaveTokenOp launched #1", "SaveTokenOp succeeded #1",
            ])
        #expect(harness.screens.records.filter(\.isPhone).count == 1, "the phone screen was asked again")
        #expect(harness.backend.requestCount(for: .phone) == 3)
        #expect(harness.screens.unanswered.isEmpty)
    }

    @Test func transientFailuresRetryAfterTheBackoffOnTheTestScheduler() async throws {
        let harness = SignInHarness(
            termsRequired: false, faults: [.phone: [.unavailable(times: 1)]],
            screens: ScriptedScreens(phone: [.submitted(Fixtures.phone)], code: [.submitted(Fixtures.code)]))
        let backoff = Backoff(initial: .seconds(2), multiplier: 2, cap: .seconds(10), jitter: 0)
        let factory = AuthFlowFactory(
            api: harness.api, storage: harness.storage, screens: harness.screens,
            retry: .transient(maxAttempts: 3, backoff: backoff))
        let result = Mailbox<Result<AuthToken, any Error>>()
        factory.makeAuthScenario().launch(harness.context(nil)) { result.put($0) }

        // The first attempt fails on a Dispatch queue; the retry then waits on the test scheduler.
        try await OwnThread.run { try harness.waitForScheduledWork() }
        // The failed request's timeout ran on the test scheduler and was cancelled by its answer;
        // only the backoff waits.
        #expect(harness.scheduler.pendingCount == 1)
        #expect(harness.scheduler.requestedDelays == [SignInHarness.requestTimeout, .seconds(2)])
        #expect(result.isEmpty)
        harness.scheduler.advance(by: .seconds(2))
        let token = try await OwnThread.run { try result.take() }.get()
        #expect(try harness.storage.loadAuthToken() == token)
        #expect(harness.backend.requestCount(for: .phone) == 2)
        #expect(harness.screens.records.filter(\.isPhone).count == 1, "the phone screen was asked again")
    }

    @Test func wrongCodeThenRightCodeAsksAgainWithoutAnotherSMS() async throws {
        let harness = SignInHarness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted],
                code: [.submitted(Fixtures.wrongCode), .submitted(Fixtures.code)]))
        let report = await harness.signIn()

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(
            harness.recorder.stepLines == [
                "PhoneOp launched #1", "PhoneOp succeeded #1",
                "VerificationScenario launched #1", "PhoneOp skipped",
                "TermsOfUseOp launched #1", "TermsOfUseOp succeeded #1",
                "CodeOp launched #1", "CodeOp failed #1: \(AuthError.invalidCode(attemptsLeft: 2))",
                "CodeOp launched #2", "CodeOp succeeded #2",
                "VerificationScenario succeeded #1",
                "SaveTokenOp launched #1", "SaveTokenOp succeeded #1",
            ])
        let askedAgain = CodeViewModel(
            api: modelAPI, phone: Fixtures.phone, codeLength: 6, attemptsLeft: 2, errorMessage: "Wrong code.")
        #expect(harness.screens.records.filter(\.isCode) == [.code(SignInHarness.codeModel), .code(askedAgain)])
        #expect(harness.backend.requestCount(for: .codeSend) == 1)
        #expect(harness.backend.requestCount(for: .codeVerify) == 2)
        #expect(harness.backend.sentSMS.count == 1)
    }

    @Test func lockedAfterTheLastWrongCodeEndsWithTheLock() async throws {
        let harness = SignInHarness(
            attemptsBeforeLock: 3,
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted],
                code: Array(repeating: .submitted(Fixtures.wrongCode), count: 3)))
        let report = await harness.signIn()

        expectKeptContract(report)
        let failure = try #require(report.error as? StepFailure)
        #expect(failure.rootCause as? AuthError == .locked(retryAfter: 300))
        #expect(failure.stepPath == ["VerificationScenario", "CodeOp"])
        #expect((failure.error as? StepFailure)?.attempt == 3)
        #expect(!failure.isCancellation)
        #expect(try harness.storage.loadAuthToken() == nil)
        #expect(
            harness.recorder.stepLines.suffix(7).dropLast() == [
                "CodeOp launched #1", "CodeOp failed #1: \(AuthError.invalidCode(attemptsLeft: 2))",
                "CodeOp launched #2", "CodeOp failed #2: \(AuthError.invalidCode(attemptsLeft: 1))",
                "CodeOp launched #3", "CodeOp failed #3: \(AuthError.locked(retryAfter: 300))",
            ])
        // A lock is not something the person can correct: the verification is not launched again.
        #expect(harness.recorder.stepLines.filter { $0.hasPrefix("VerificationScenario launched") }.count == 1)
        #expect(harness.backend.requestCount(for: .codeSend) == 1)
        #expect(harness.backend.requestCount(for: .codeVerify) == 3)
        #expect(harness.screens.unanswered.isEmpty)
    }

    @Test func declinedTermsEndTheScenarioAsCancelledBeforeAnySMS() async throws {
        let harness = SignInHarness(screens: ScriptedScreens(phone: [.submitted(Fixtures.phone)], terms: [.declined]))
        let report = await harness.signIn()

        expectKeptContract(report)
        let failure = try #require(report.error as? StepFailure)
        #expect(failure.rootCause as? SignInCancelled == .termsDeclined)
        #expect(failure.isCancellation)
        #expect(
            harness.recorder.stepLines == [
                "PhoneOp launched #1", "PhoneOp succeeded #1",
                "VerificationScenario launched #1", "PhoneOp skipped",
                "TermsOfUseOp launched #1", "TermsOfUseOp failed #1: \(SignInCancelled.termsDeclined)",
                "VerificationScenario failed #1: TermsOfUseOp cancelled: \(SignInCancelled.termsDeclined)",
            ])
        #expect(harness.backend.requestCount(for: .termsAccept) == 0)
        #expect(harness.backend.requestCount(for: .codeSend) == 0)
        #expect(harness.backend.sentSMS.isEmpty)
        #expect(try harness.storage.loadAuthToken() == nil)
    }

    @Test func aTransientFailureOfVerificationIsRetriedWithoutLosingTheSentCode() async throws {
        // The retry relaunches CodeOp with the same request: the backend refuses a second SMS
        // within the resend interval, and the code already sent must still be asked for.
        let harness = SignInHarness(
            faults: [.codeVerify: [.unavailable(times: 1)]],
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted],
                code: [.submitted(Fixtures.code), .submitted(Fixtures.code)]))
        let report = await harness.signIn()

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(harness.backend.sentSMS.count == 1)
        #expect(harness.backend.requestCount(for: .codeVerify) == 2)
        #expect(harness.screens.unanswered.isEmpty)
    }
}

extension ScriptedScreens.Record {
    var isCode: Bool {
        if case .code = self { true } else { false }
    }

    var isPhone: Bool {
        if case .phone = self { true } else { false }
    }

    var isTerms: Bool {
        if case .terms = self { true } else { false }
    }
}
