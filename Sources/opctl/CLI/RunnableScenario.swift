import AuthFlow
import Operations

/// A scenario or operation that opctl can run and rerun by name, launched with an optional phone
/// number, and how its result reads on the terminal.
struct RunnableScenario {
    /// The name on the command line and in the journal.
    let name: String
    /// One line for `opctl ops`.
    let summary: String
    /// Whether it is a scenario (chains operations) rather than a single operation.
    let isScenario: Bool
    /// Launches it with the factory's services; the result is the saved token, if any, and a
    /// sentence saying what happened.
    let launch: @Sendable (AuthFlowFactory, OpContext<PhoneNumber?>, @escaping OnFinish<Success>) -> Void
    /// The shape of what it launches with the factory's operations, recorded in its journals and
    /// checked by `rerun` and `check`; named after the runnable (its name on the command line),
    /// so a journal finds its runnable again.
    let shape: @Sendable (AuthFlowFactory) -> ScenarioShape
    /// What a failed run left behind, said under the error when the state is not obvious.
    let failureHint: String?

    /// A runnable that launches `scenario` and says `success` of what it finishes with.
    init<Output>(
        name: String, summary: String, isScenario: Bool, failureHint: String? = nil,
        scenario: @escaping @Sendable (AuthFlowFactory) -> Scenario<PhoneNumber?, Output>,
        success: @escaping @Sendable (Output) -> Success
    ) {
        self.name = name
        self.summary = summary
        self.isScenario = isScenario
        self.failureHint = failureHint
        self.launch = { factory, context, onFinish in
            scenario(factory).launch(context) { onFinish($0.map(success)) }
        }
        self.shape = { factory in
            let shape = scenario(factory).shape
            return ScenarioShape(name: name, version: shape.version, steps: shape.steps)
        }
    }

    /// What a successful run produced, before ``SignInExecution`` turns it into the runner's
    /// `RunOutcome` (with where the token was saved).
    struct Success: Sendable {
        let sentence: String
        let token: AuthToken?
    }

    /// Everything `opctl run` knows, in `opctl ops` order.
    static let all: [RunnableScenario] = [
        RunnableScenario(
            name: "auth",
            summary: "AuthScenario: PhoneOp → VerificationScenario (TermsOfUseOp when required → CodeOp) → SaveTokenOp",
            isScenario: true, scenario: { $0.makeAuthScenario() },
            success: { Success(sentence: "Signed in.", token: $0) }
        ),
        RunnableScenario(
            name: "app", summary: "AppScenario: signs in, or shows changed terms, or says you are signed in",
            isScenario: true, scenario: { $0.makeAppScenario() },
            success: { Success(sentence: sentence(for: $0), token: $0.token) }
        ),
        RunnableScenario(
            name: "PhoneOp", summary: "sends the phone number; returns the phone token (pure)", isScenario: false,
            scenario: phoneScenario,
            success: {
                Success(
                    sentence:
                        "Phone accepted; phone token \($0.phoneToken), terms required: \($0.termsRequired ? "yes" : "no").",
                    token: nil)
            }
        ),
        RunnableScenario(
            name: "TermsOfUseOp", summary: "shows the current terms for the saved sign-in and sends the acceptance",
            isScenario: false, scenario: { $0.makeSavedSessionTermsScenario() },
            success: { outcome in
                switch outcome {
                case .alreadySignedIn(let token):
                    Success(sentence: "The current terms of use are already accepted.", token: token)
                default:
                    Success(sentence: sentence(for: outcome), token: outcome.token)
                }
            }
        ),
        RunnableScenario(
            name: "sign-out", summary: "SignOutOp: revokes the saved sign-in on the backend, then deletes it",
            isScenario: false,
            failureHint: "Your saved sign-in was kept: it is deleted only after the backend confirms the sign-out.",
            scenario: signOutScenario, success: { Success(sentence: sentence(for: $0), token: nil) }
        ),
    ]

    /// The runnable called `name` (`auth`, `app`, `AuthScenario`, `AppScenario`, `PhoneOp`, …).
    static func named(_ name: String) -> RunnableScenario? {
        let aliases = ["AuthScenario": "auth", "AppScenario": "app"]
        let wanted = aliases[name] ?? name
        return all.first { $0.name == wanted }
    }
}

/// `PhoneOp` alone, as a one-step scenario so it is journaled and rerun like the others. The
/// operation retries its request itself, so the step is not retried (the screen would be asked
/// again).
private func phoneScenario(_ factory: AuthFlowFactory) -> Scenario<PhoneNumber?, SignInAttempt> {
    Scenario<PhoneNumber?, SignInAttempt>("PhoneOp") { $0.then(Step(factory.makePhoneOp)) }
}

/// `SignOutOp` alone, as a one-step scenario so it is journaled and rerun like the others. It
/// needs no phone: the launch's phone, if any, is dropped.
private func signOutScenario(_ factory: AuthFlowFactory) -> Scenario<PhoneNumber?, SignOutOutcome> {
    Scenario<PhoneNumber?, SignOutOutcome>("SignOutOp") { chain in
        chain.map { _ in () }.then(Step(factory.makeSignOutOp).retrying(factory.retry.relaunchingSideEffects))
    }
}

/// What a sign-out says on the terminal.
private func sentence(for outcome: SignOutOutcome) -> String {
    switch outcome {
    case .signedOut: "Signed out."
    case .notSignedIn: "Not signed in; nothing to do."
    }
}

/// What an app run says on the terminal.
private func sentence(for outcome: AppOutcome) -> String {
    switch outcome {
    case .signedIn: "Signed in."
    case .acceptedNewTerms: "Accepted the new terms of use."
    case .alreadySignedIn: "Already signed in."
    }
}
