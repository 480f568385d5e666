import Foundation
public import Operations

/// Where the app stands after ``AppScenario`` finished.
public enum AppOutcome: Sendable, Hashable, Codable, CustomStringConvertible {
    /// There was no usable saved token; the user signed in.
    case signedIn(AuthToken)
    /// The saved token was valid but the terms had changed; the user accepted the new ones.
    case acceptedNewTerms(AuthToken)
    /// The saved token was valid and the terms unchanged.
    case alreadySignedIn(AuthToken)

    /// The token the app now holds.
    public var token: AuthToken {
        switch self {
        case .signedIn(let token), .acceptedNewTerms(let token), .alreadySignedIn(let token): token
        }
    }

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .signedIn: "signed in"
        case .acceptedNewTerms: "accepted the new terms of use"
        case .alreadySignedIn: "already signed in"
        }
    }
}

/// The app's main scenario (a mediator), launched with a phone number to prefill a sign-in (or
/// `nil`): with no usable saved token it runs ``AuthScenario``; with a saved token whose terms
/// changed it runs ``TermsOfUseOp`` alone and saves the refreshed token; otherwise the user is
/// signed in. It reacts only to the secondary scenarios' results, never to their inner steps —
/// and, being a ``Scenario``, it is journaled and resumable like any other.
public typealias AppScenario = Scenario<PhoneNumber?, AppOutcome>

extension Scenario where Input == PhoneNumber?, Output == AppOutcome {
    /// Chains the app's steps from `factory`.
    ///
    /// - Parameters:
    ///   - factory: Makes every operation and the nested sign-in scenario.
    ///   - name: The scenario's name; `opctl run TermsOfUseOp` uses the same chain without the
    ///     sign-in, under the operation's name.
    ///   - signsIn: Whether a signed-out user is signed in (otherwise the run fails with
    ///     ``SessionCheck/NotSignedIn``).
    static func make(with factory: AuthFlowFactory, name: String = "AppScenario", signsIn: Bool = true)
        -> AppScenario
    {
        let retry = factory.retry
        let build: (ScenarioBuilder<PhoneNumber?, PhoneNumber?>) -> ScenarioBuilder<PhoneNumber?, AppOutcome> = {
            chain in
            var chain = chain.then(Step(factory.makeCheckSessionOp).retrying(retry))
            if signsIn {
                chain = chain.then(
                    Step("AuthScenario", purity: .sideEffects, factory.makeAuthScenario),
                    when: \.isSignedOut, describedAs: "signed out", input: \.phone
                ) { check, token in check.concluding(.signedIn(token)) }
            }
            return
                chain
                .then(
                    Step(factory.makeTermsOfUseOp).retrying(retry.relaunchingSideEffects), when: \.termsChanged,
                    describedAs: "terms changed", input: \.reacceptanceToken
                ) { check, acceptance in check.concluding(.acceptedNewTerms(acceptance.authToken ?? check.savedToken)) }
                .then(
                    Step(factory.makeSaveTokenOp).retrying(retry.relaunchingSideEffects),
                    when: \.acceptedNewTerms, describedAs: "new terms accepted", input: \.concludedToken
                ) { check, _ in check }
                .map { try $0.outcome() }
        }
        // The main scenario reacts to the world outside; the saved-session terms scenario is
        // what it reacts with, and takes no events itself.
        guard signsIn else { return AppScenario(name, build) }
        return AppScenario(
            name, events: factory.events,
            onEvent: { event, boundary, react in
                AppScenario.react(to: event, at: boundary, factory: factory, react)
            }, build)
    }

    /// How the main scenario reacts to an event from outside, at a step boundary.
    ///
    /// - ``AppEvent/signedOutElsewhere``: a push is a hint, the backend decides. With a token
    ///   saved, the session is checked: when the backend no longer accepts it (or cannot be
    ///   asked — the safe side), the token is deleted and the flow ends as cancelled
    ///   (``SignedOutElsewhere``); a session it still accepts is newer than the sign-out (signed
    ///   in here since) and the flow goes on. With nothing saved there is nothing to end.
    /// - ``AppEvent/termsChanged``: once the run's own steps are done (at the end), the
    ///   saved-session terms flow is launched alone — a session check, ``TermsOfUseOp`` when the
    ///   terms changed, the refreshed token saved — by the key service ``SessionKeeper``, as
    ///   seeds/003's key service launches a lone operation.
    ///   Earlier boundaries postpone it: the run's own session check and terms step come first,
    ///   and the check the reaction starts with then finds terms the run already accepted, so
    ///   they are never shown twice. Nobody signed in at the end (a cancelled sign-in) leaves
    ///   nothing to show.
    ///
    /// The outcome the run finishes with is its own: a reaction at the end refreshes only the
    /// saved token, and one that fails (the terms declined, the backend unreachable) is noted in
    /// the run's trace and leaves the outcome as it was — the next session check asks again.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - boundary: Where the run stands.
    ///   - factory: Makes the reaction's operations and holds the storage.
    ///   - react: Called once with the reaction.
    public static func react(
        to event: AppEvent, at boundary: StepBoundary, factory: AuthFlowFactory,
        _ react: @escaping @Sendable (EventReaction) -> Void
    ) {
        let signedIn = { ((try? factory.storage.loadAuthToken()) ?? nil) != nil }
        switch event {
        case .signedOutElsewhere:
            guard signedIn() else { return react(.proceed) }
            factory.makeCheckSessionOp().launch(boundary.context.with(input: nil)) { checked in
                if case .success(let check) = checked, check.standing != .signedOut { return react(.proceed) }
                do {
                    try factory.storage.clearAuthToken()
                } catch {
                    return react(.end(error))
                }
                react(.end(SignedOutElsewhere()))
            }
        case .termsChanged:
            guard boundary.nextStep == nil else { return react(.postpone) }
            guard signedIn() else { return react(.proceed) }
            let trace = boundary.context.trace
            trace?.message(to: SessionKeeper.participant, "acceptChangedTerms()")
            factory.sessionKeeper.acceptChangedTerms(boundary.context.with(input: ())) { result in
                trace?.reply(from: SessionKeeper.participant, result.replyLabel { $0.traceLabel })
                if case .failure(let error) = result {
                    trace?.note("new terms not accepted: \(TraceLabel.describe(error) ?? "error")")
                }
                react(.proceed)
            }
        }
    }
}
