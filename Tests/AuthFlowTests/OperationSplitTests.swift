import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import StatefulAuthFlow
import Testing

/// The comparisons the article makes, runnable: AuthOp before the split, and the stateful
/// variants beside the pure operations.
struct OperationSplitTests {
    static let rejected: PhoneNumber = {
        // swift-format-ignore: NeverUseForceTry
        try! PhoneNumber(parsing: "+7 999 000-00-00")
    }()
    static let other: PhoneNumber = {
        // swift-format-ignore: NeverUseForceTry
        try! PhoneNumber(parsing: "+7 999 765-43-21")
    }()

    private static func harness(termsRequired: Bool = true, screens: ScriptedScreens) -> SignInHarness {
        let clock = TestClock(Date())
        var configuration = SimulatedBackend.Configuration(smsCode: "123456", termsRequired: termsRequired)
        configuration.clock = clock.function
        configuration.instanceID = 1
        configuration.rejectedNumbers = [rejected.e164]
        return SignInHarness(
            backend: SimulatedBackend(configuration: configuration), clock: clock, screens: screens)
    }

    // MARK: - AuthOp, before the split

    @Test func authOpSignsInWhenNoTermsAreRequired() throws {
        let harness = Self.harness(
            termsRequired: false,
            screens: ScriptedScreens(phone: [.submitted(Fixtures.phone)], code: [.submitted(Fixtures.code)]))
        let report = LaunchProbe.launch(harness.factory.makeAuthOp(), context: harness.context(nil))

        expectKeptContract(report)
        #expect(try report.value().revealed.hasPrefix("sim1."))
        #expect(harness.backend.sentSMS.count == 1)
        #expect(harness.screens.records.filter(\.isPhone).count == 1)
    }

    /// Why it had to split: the terms must be accepted after the number and before the code is
    /// requested. AuthOp has no middle to put them in, so it fails where the backend asks for
    /// them; the scenario of split operations shows them there and signs in.
    @Test func authOpCannotShowTheTermsTheScenarioShowsBetweenItsSteps() async throws {
        let harness = Self.harness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone), .submitted(Fixtures.phone)], terms: [.accepted],
                code: [.submitted(Fixtures.code)]))
        let before = LaunchProbe.launch(harness.factory.makeAuthOp(), context: harness.context(nil))

        expectKeptContract(before)
        #expect(before.error as? AuthError == .termsOutdated(currentVersion: "1"))
        #expect(harness.backend.sentSMS.isEmpty)
        #expect(harness.screens.records.filter(\.isTerms).isEmpty)

        let after = await harness.signIn()
        expectKeptContract(after)
        #expect(try harness.storage.loadAuthToken() == after.value())
        #expect(harness.screens.records.filter(\.isTerms).count == 1)
        #expect(harness.backend.sentSMS.count == 1)
    }

    // MARK: - Stateful variants

    /// The stateful chain works — each step reads what the one before wrote.
    @Test func theStatefulOperationsSignInThroughStorage() throws {
        let harness = Self.harness(
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted], code: [.submitted(Fixtures.code)]))
        let factory = harness.factory
        let phoneTokens = InMemoryPhoneTokenStore()
        try LaunchProbe.launch(factory.makeStatefulPhoneOp(phoneTokens: phoneTokens), context: harness.context(nil))
            .value()
        let before = try phoneTokens.loadPhoneToken()
        try LaunchProbe.launch(factory.makeStatefulTermsOfUseOp(phoneTokens: phoneTokens), context: harness.context(()))
            .value()
        #expect(try phoneTokens.loadPhoneToken() != before, "the acceptance's token was saved over it")
        try LaunchProbe.launch(
            factory.makeStatefulCodeOp(phoneTokens: phoneTokens), context: harness.context(Fixtures.phone)
        ).value()
        #expect(try harness.storage.loadAuthToken() != nil)
        #expect(harness.screens.unanswered.isEmpty)
    }

    /// The difference that matters. A person entered one number, went back and typed another,
    /// which the backend rejects. A stateful flow that simply launches again acts on the token
    /// the first attempt left in storage — the SMS goes to the first number — unless it clears
    /// the storage first. The pure flow has nothing to clean: the failed PhoneOp returned an
    /// error, wrote nothing, and is simply launched again.
    @Test func aFailedStatefulOperationMustBeCleanedUpAPureOneIsLaunchedAgain() throws {
        let harness = Self.harness(
            termsRequired: false,
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone), .submitted(Self.rejected), .submitted(Self.rejected)],
                code: [.submitted(Fixtures.code)]))
        let factory = harness.factory
        let phoneTokens = InMemoryPhoneTokenStore()

        // Stateful: the second attempt fails and leaves the first one's token behind.
        try LaunchProbe.launch(factory.makeStatefulPhoneOp(phoneTokens: phoneTokens), context: harness.context(nil))
            .value()
        let failed = LaunchProbe.launch(
            factory.makeStatefulPhoneOp(phoneTokens: phoneTokens), context: harness.context(nil))
        #expect(failed.error as? AuthError == .invalidPhone)
        #expect(try phoneTokens.loadPhoneToken() != nil, "the first attempt's token is still there")
        try LaunchProbe.launch(
            factory.makeStatefulCodeOp(phoneTokens: phoneTokens), context: harness.context(Self.rejected)
        )
        .value()
        #expect(harness.backend.sentSMS.map(\.phone) == [Fixtures.phone], "the SMS went to the first number")

        // Cleaned up first, the stateful code step has nothing to act on.
        try phoneTokens.clearPhoneToken()
        let cleaned = LaunchProbe.launch(
            factory.makeStatefulCodeOp(phoneTokens: phoneTokens), context: harness.context(Self.rejected))
        #expect(cleaned.error as? MissingPhoneToken == MissingPhoneToken())
        #expect(harness.backend.sentSMS.count == 1)

        // Pure: the failed launch wrote nothing; launched again, it answers for the new number
        // only, and CodeOp is launched with exactly that answer.
        let pureFailed = LaunchProbe.launch(
            PhoneOp(api: harness.api, screens: harness.screens), context: harness.context(nil))
        #expect(pureFailed.error as? AuthError == .invalidPhone)
        let pureScreens = ScriptedScreens(phone: [.submitted(Self.other)], code: [.submitted(Fixtures.code)])
        let attempt = try LaunchProbe.launch(
            PhoneOp(api: harness.api, screens: pureScreens), context: harness.context(nil)
        ).value()
        #expect(attempt.phone == Self.other)
        _ = try LaunchProbe.launch(
            CodeOp(api: harness.api, screens: pureScreens), context: harness.context(CodeRequest(attempt: attempt))
        ).value()
        #expect(harness.backend.sentSMS.map(\.phone) == [Fixtures.phone, Self.other])
    }
}
