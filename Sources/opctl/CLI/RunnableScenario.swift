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
    /// The shape of what it launches, recorded in its journals and checked by `rerun` and
    /// `check`; named after the runnable (its name on the command line), so a journal finds its
    /// runnable again.
    let makeShape: @Sendable (AuthFlowFactory) -> ScenarioShape
    /// What a failed run left behind, said under the error when the state is not obvious.
    let failureHint: String?

    init(
        name: String, summary: String, isScenario: Bool, failureHint: String? = nil,
        shape: @escaping @Sendable (AuthFlowFactory) -> any ScenarioShapeProviding,
        launch: @escaping @Sendable (AuthFlowFactory, OpContext<PhoneNumber?>, @escaping OnFinish<Success>) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.isScenario = isScenario
        self.failureHint = failureHint
        self.launch = launch
        self.makeShape = { factory in
            let shape = shape(factory).shape
            return ScenarioShape(name: name, version: shape.version, steps: shape.steps)
        }
    }

    /// The shape of what it launches with `factory`'s operations.
    func shape(_ factory: AuthFlowFactory) -> ScenarioShape { makeShape(factory) }

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
            isScenario: true, shape: { $0.makeAuthScenario() },
            launch: { factory, context, onFinish in
                factory.makeAuthScenario().launch(context) { result in
                    onFinish(result.map { Success(sentence: "Signed in.", token: $0) })
                }
            }
        ),
        RunnableScenario(
            name: "app", summary: "AppScenario: signs in, or shows changed terms, or says you are signed in",
            isScenario: true, shape: { $0.makeAppScenario() },
            launch: { factory, context, onFinish in
                factory.makeAppScenario().launch(context) { result in
                    onFinish(result.map { Success(sentence: sentence(for: $0), token: $0.token) })
                }
            }
        ),
        RunnableScenario(
            name: "PhoneOp", summary: "sends the phone number; returns the phone token (pure)", isScenario: false,
            shape: { phoneScenario($0) },
            launch: { factory, context, onFinish in
                phoneScenario(factory)
                    .launch(context) { result in
                        onFinish(
                            result.map {
                                Success(
                                    sentence:
                                        "Phone accepted; phone token \($0.phoneToken), terms required: \($0.termsRequired ? "yes" : "no").",
                                    token: nil)
                            })
                    }
            }
        ),
        RunnableScenario(
            name: "TermsOfUseOp", summary: "shows the current terms for the saved sign-in and sends the acceptance",
            isScenario: false, shape: { $0.makeSavedSessionTermsScenario() },
            launch: { factory, context, onFinish in
                factory.makeSavedSessionTermsScenario().launch(context) { result in
                    onFinish(
                        result.map { outcome in
                            switch outcome {
                            case .alreadySignedIn(let token):
                                Success(sentence: "The current terms of use are already accepted.", token: token)
                            default:
                                Success(sentence: sentence(for: outcome), token: outcome.token)
                            }
                        })
                }
            }
        ),
        RunnableScenario(
            name: "sign-out", summary: "SignOutOp: revokes the saved sign-in on the backend, then deletes it",
            isScenario: false,
            failureHint: "Your saved sign-in was kept: it is deleted only after the backend confirms the sign-out.",
            shape: { signOutScenario($0) },
            launch: { factory, context, onFinish in
                signOutScenario(factory).launch(context) { result in
                    onFinish(result.map { Success(sentence: sentence(for: $0), token: nil) })
                }
            }
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
