public import AuthFlow
import AuthSimulator
import Operations
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

    /// `SignOutOp` as opctl runs it (a one-step scenario, its request retried with its key), with
    /// a sign-in saved beforehand, outside the schedule's faults.
    public static func signOut(_ world: FaultWorld) -> ExploredFlow<Void, SignOutOutcome> {
        let backend = makeBackend()
        let storage = InMemoryLocalStorage(token: signedIn(HTTPAuthAPI(transport: backend)))
        let factory = makeFactory(world, storage: storage, backend: backend)
        let scenario = Scenario<Void, SignOutOutcome>("SignOutOp") { chain in
            chain.then(Step(factory.makeSignOutOp).retrying(factory.retry.relaunchingSideEffects))
        }
        return ExploredFlow(scenario: scenario, input: (), secrets: [code])
    }

    /// Signs in against the simulator directly (it answers on the caller's thread), for a flow
    /// that starts signed in; `nil` if a step did not answer at once.
    private static func signedIn(_ api: HTTPAuthAPI) -> AuthToken? {
        guard let number = try? PhoneNumber(parsing: phone), let entered = try? SMSCode(code, length: code.count)
        else { return nil }
        let token = LockedState<AuthToken?>(nil)
        api.submitPhone(number, call: AuthCall()) { session in
            guard case .success(let session) = session else { return }
            api.acceptTerms(version: "1", phoneToken: session.phoneToken, call: AuthCall()) { accepted in
                guard case .success(let accepted) = accepted else { return }
                api.sendCode(phoneToken: accepted.phoneToken, call: AuthCall()) { _ in
                    api.verifyCode(entered, phoneToken: accepted.phoneToken, call: AuthCall()) { verified in
                        token.withLock { $0 = try? verified.get() }
                    }
                }
            }
        }
        return token.withLock { $0 }
    }

    private static func makeBackend() -> SimulatedBackend {
        var configuration = SimulatedBackend.Configuration()
        configuration.smsCode = code
        configuration.answersOnCallersThread = true
        return SimulatedBackend(configuration: configuration)
    }

    private static func makeFactory(
        _ world: FaultWorld, storage: any LocalStorage, backend: SimulatedBackend = makeBackend()
    ) -> AuthFlowFactory {
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
