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
    /// - Returns: The scenario.
    static func make(with factory: AuthFlowFactory, name: String = "AppScenario", signsIn: Bool = true)
        -> AppScenario
    {
        let retry = factory.retry
        return AppScenario(name) { chain in
            var chain = chain.then(Step(factory.makeCheckSessionOp).retrying(retry))
            if signsIn {
                chain = chain.then(
                    Step("AuthScenario", purity: .sideEffects, factory.makeAuthScenario),
                    when: { $0.standing == .signedOut }, describedAs: "signed out", input: \.phone
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
    }
}
