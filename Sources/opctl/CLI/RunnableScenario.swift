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
    let launch: @Sendable (AuthFlowFactory, OpContext<PhoneNumber?>, @escaping OnFinish<RunOutcome>) -> Void

    /// What a successful run produced.
    struct RunOutcome: Sendable {
        let sentence: String
        let token: AuthToken?
    }

    /// Everything `opctl run` knows, in `opctl ops` order.
    static let all: [RunnableScenario] = [
        RunnableScenario(
            name: "auth", summary: "AuthScenario: PhoneOp → TermsOfUseOp (when required) → CodeOp → SaveTokenOp",
            isScenario: true
        ) { factory, context, onFinish in
            factory.makeAuthScenario().launch(context) { result in
                onFinish(result.map { RunOutcome(sentence: "Signed in.", token: $0) })
            }
        },
        RunnableScenario(
            name: "app", summary: "AppScenario: signs in, or shows changed terms, or says you are signed in",
            isScenario: true
        ) { factory, context, onFinish in
            factory.makeAppScenario().launch(context) { result in
                onFinish(result.map { RunOutcome(sentence: sentence(for: $0), token: $0.token) })
            }
        },
        RunnableScenario(name: "PhoneOp", summary: "sends the phone number; returns the phone token (pure)", isScenario: false) {
            factory, context, onFinish in
            Scenario<PhoneNumber?, SignInAttempt>("PhoneOp") { $0.then(Step(factory.makePhoneOp).retrying(factory.retry)) }
                .launch(context) { result in
                    onFinish(
                        result.map {
                            RunOutcome(sentence: "Phone accepted; phone token \($0.phoneToken), terms required: \($0.termsRequired ? "yes" : "no").", token: nil)
                        })
                }
        },
        RunnableScenario(
            name: "TermsOfUseOp", summary: "shows the current terms for the saved sign-in and sends the acceptance",
            isScenario: false
        ) { factory, context, onFinish in
            factory.makeSavedSessionTermsScenario().launch(context) { result in
                onFinish(result.map { outcome in
                    switch outcome {
                    case .alreadySignedIn(let token):
                        RunOutcome(sentence: "The current terms of use are already accepted.", token: token)
                    default:
                        RunOutcome(sentence: sentence(for: outcome), token: outcome.token)
                    }
                })
            }
        },
    ]

    /// The runnable called `name` (`auth`, `app`, `AuthScenario`, `AppScenario`, `PhoneOp`, …).
    static func named(_ name: String) -> RunnableScenario? {
        let aliases = ["AuthScenario": "auth", "AppScenario": "app"]
        let wanted = aliases[name] ?? name
        return all.first { $0.name == wanted }
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
