public import Operations

/// The key service that keeps a saved sign-in's acceptance of the terms current, launching an
/// operation by itself to do so: seeds/003's key service that runs a lone operation without a
/// scenario of its own.
///
/// ``AppScenario`` hands it a `terms-changed` event (``AppScenario/react(to:at:factory:_:)``).
/// It launches the saved-session terms flow (``AuthFlowFactory/makeSavedSessionTermsScenario()``,
/// named `TermsOfUseOp`: the session checked, ``TermsOfUseOp`` when the terms changed, the
/// refreshed token saved) and answers when that finished. The launch is this service's, not the
/// scenario's, so a run's diagram draws it from this service's lifeline.
public struct SessionKeeper: Sendable {
    /// The service's lifeline in the diagrams.
    public static let participant = Participant.keyService("SessionKeeper")

    private let factory: AuthFlowFactory

    /// Creates the service; use ``AuthFlowFactory/sessionKeeper``.
    ///
    /// - Parameter factory: Makes the operations it launches.
    public init(factory: AuthFlowFactory) {
        self.factory = factory
    }

    /// Shows changed terms for the saved sign-in and saves the refreshed token.
    ///
    /// - Parameters:
    ///   - context: The launch context of whoever asks (its cancellation, journal scope and
    ///     environment); the launch is recorded as this service's.
    ///   - onFinish: Called once with the saved session's outcome, or why the terms were not
    ///     accepted.
    public func acceptChangedTerms(_ context: OpContext<Void>, onFinish: @escaping OnFinish<AppOutcome>) {
        var own = context.with(input: PhoneNumber?.none)
        own.trace = context.trace?.scope(for: Self.participant)
        factory.makeSavedSessionTermsScenario().launch(own, onFinish: onFinish)
    }
}

extension AuthFlowFactory {
    /// The key service that accepts changed terms for the saved sign-in on its own.
    public var sessionKeeper: SessionKeeper { SessionKeeper(factory: self) }
}
