public import Operations
import Foundation

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

/// The app's main scenario (a mediator): with no saved token it runs ``AuthScenario``; with a
/// saved token whose terms changed it runs ``TermsOfUseOp`` alone; otherwise the user is signed
/// in. It reacts only to the secondary scenarios' results, never to their inner steps.
public final class AppScenario: NamedOp {
    /// The name in diagrams and journals.
    public let name = "AppScenario"

    private let factory: AuthFlowFactory

    /// Creates the scenario; use ``AuthFlowFactory/makeAppScenario()``.
    public init(factory: AuthFlowFactory) {
        self.factory = factory
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<AppOutcome>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let saved: AuthToken?
        completion.trace?.declare(.localStorage)
        completion.trace?.message(to: .localStorage, "loadAuthToken()")
        do {
            saved = try factory.storage.loadAuthToken()
        } catch {
            // A damaged token file is no reason to stop: signing in again replaces it.
            saved = nil
        }
        completion.trace?.reply(from: .localStorage, saved?.redacted ?? "nil")
        guard let saved, !saved.isExpired(at: .now) else {
            return signIn(context, completion)
        }
        let trace = completion.trace
        trace?.declare(.localStorage)
        trace?.declare(.authAPI)
        trace?.message(to: .authAPI, "fetchSession(\(saved.redacted))")
        factory.api.fetchSession(authToken: saved) { [self] status in
            trace?.reply(from: .authAPI, status.replyLabel { "terms v\($0.termsVersion)" })
            switch status {
            case .failure(.unauthorized):
                signIn(context, completion)
            case .failure(let error):
                completion.fail(error)
            case .success(let status):
                guard status.termsAcceptanceRequired, let phoneToken = status.phoneToken else {
                    return completion.succeed(.alreadySignedIn(saved))
                }
                acceptNewTerms(phoneToken, saved: saved, context: context, completion)
            }
        }
    }

    private func signIn(_ context: OpContext<PhoneNumber?>, _ completion: Completion<AppOutcome>) {
        factory.makeAuthScenario().launch(completion.nested(context.nested(step: 0, "AuthScenario"))) { result in
            completion.finish(result.map(AppOutcome.signedIn))
        }
    }

    private func acceptNewTerms(
        _ phoneToken: PhoneToken, saved: AuthToken, context: OpContext<PhoneNumber?>,
        _ completion: Completion<AppOutcome>
    ) {
        let storage = factory.storage
        factory.makeTermsOfUseOp().launch(completion.nested(context.nested(step: 1, "TermsOfUseOp")).with(input: phoneToken)) { result in
            completion.finish(
                result.flatMap { acceptance in
                    let token = acceptance.authToken ?? saved
                    return Result { try storage.saveAuthToken(token) }.map { AppOutcome.acceptedNewTerms(token) }
                })
        }
    }
}

extension OpContext {
    /// The context for a secondary scenario or operation the mediator launches as its step
    /// `index`, so journals and progress address its steps under it.
    fileprivate func nested(step index: Int, _ name: String) -> OpContext {
        var copy = self
        let base = scope?.address.path ?? []
        copy.scope = ScenarioScope(address: StepAddress(path: base + [.init(index: index, name: name)]))
        return copy
    }
}
