public import AuthFlow
public import OperationsTesting

/// The sign-in's flows as the fault explorer runs them: over the simulator behind an
/// ``ExploredTransport``, with a person who always answers (the number, "accept", the code the
/// simulator sends), so that every failure comes from the schedule's faults.
///
/// `opctl explore` and the tests explore the same flows from here.
public enum SignInExploration {
    /// The simulator's SMS code; a secret the journal must never hold in clear.
    public static let code = "123456"
    /// The number the person enters.
    public static let phone = "+79991234567"

    /// `AuthScenario`: the phone, the terms, the code, the saved token.
    public static func signIn(_ world: FaultWorld) -> ExploredFlow<PhoneNumber?, AuthToken> {
        let factory = makeFactory(world, storage: InMemoryLocalStorage())
        return ExploredFlow(scenario: factory.makeAuthScenario(), input: nil, secrets: [code])
    }

    /// `AppScenario` from a cold start: no saved session, so it signs in.
    public static func app(_ world: FaultWorld) -> ExploredFlow<PhoneNumber?, AppOutcome> {
        let factory = makeFactory(world, storage: InMemoryLocalStorage())
        return ExploredFlow(scenario: factory.makeAppScenario(), input: nil, secrets: [code])
    }

    private static func makeFactory(_ world: FaultWorld, storage: any LocalStorage) -> AuthFlowFactory {
        var configuration = SimulatedBackend.Configuration()
        configuration.smsCode = code
        configuration.answersOnCallersThread = true
        let backend = SimulatedBackend(configuration: configuration)
        let api = HTTPAuthAPI(transport: ExploredTransport(world: world, backend: backend))
        let answers = 12
        // Both values are valid by construction; a cancelled screen would show as a violation.
        let number: PhoneScreenEvent = (try? PhoneNumber(parsing: phone)).map { .submitted($0) } ?? .cancelled
        let entered: CodeScreenEvent = (try? SMSCode(code, length: code.count)).map { .submitted($0) } ?? .cancelled
        let screens = ScriptedScreens(
            phone: Array(repeating: number, count: answers), terms: Array(repeating: .accepted, count: answers),
            code: Array(repeating: entered, count: answers))
        return AuthFlowFactory(api: api, storage: storage, screens: screens)
    }
}
