public import Operations

/// Builds the operations and scenarios of phone sign-in from the key services they share.
///
/// The factory is the only place that knows which services an operation needs; a call site
/// only makes and launches. Every `make` returns a new, unlaunched operation.
public struct AuthFlowFactory: Sendable {
    /// The backend.
    public let api: any AuthAPI
    /// Where the auth token is kept.
    public let storage: any LocalStorage
    /// The screens the operations show.
    public let screens: any AuthScreens
    /// How steps that talk to the backend are retried.
    public let retry: RetryPolicy
    /// Whether the person is asked again to correct what the backend rejected: a rejected
    /// number re-shows the phone screen, a wrong code the code screen, changed terms the terms
    /// screen, and an expired attempt starts again from the phone screen with the number filled
    /// in. A non-interactive caller turns it off: nobody can answer, so the run fails with the
    /// backend's reason and can be rerun or started again.
    public let asksAgain: Bool
    /// Where the app posts events from outside (a push, another device) for ``AppScenario`` to
    /// react to at its next step boundary: a key service, shared by every scenario it makes.
    public let events: EventInbox<AppEvent>

    /// Creates a factory.
    ///
    /// - Parameters:
    ///   - api: The backend.
    ///   - storage: Where the auth token is kept.
    ///   - screens: The screens the operations show.
    ///   - retry: The policy for transient backend failures (unreachable, timeout, 5xx, 429).
    ///   - asksAgain: Whether rejections the person can correct show the screen that corrects them.
    ///   - events: Where the app posts events from outside for ``AppScenario``.
    public init(
        api: any AuthAPI, storage: any LocalStorage, screens: any AuthScreens,
        retry: RetryPolicy = .transient(maxAttempts: 3), asksAgain: Bool = true,
        events: EventInbox<AppEvent> = EventInbox()
    ) {
        self.api = api
        self.storage = storage
        self.screens = screens
        self.retry = retry
        self.asksAgain = asksAgain
        self.events = events
    }

    /// Sends the phone number, retrying the request (not the screen) by ``retry`` and asking
    /// again for a rejected number when ``asksAgain``; pure.
    public func makePhoneOp() -> PhoneOp { PhoneOp(api: api, screens: screens, retry: retry, asksAgain: asksAgain) }

    /// Phone and code in one operation: the article's "before" the split, for the comparison;
    /// side effects, keyed.
    public func makeAuthOp() -> AuthOp { AuthOp(api: api, screens: screens) }

    /// Fetches, shows and accepts the terms of use; side effects (the acceptance), keyed.
    public func makeTermsOfUseOp() -> TermsOfUseOp { TermsOfUseOp(api: api, screens: screens) }

    /// Requests and verifies the SMS code; side effects (the SMS, the attempt), keyed.
    public func makeCodeOp() -> CodeOp { CodeOp(api: api, screens: screens) }

    /// Saves the auth token; has a side effect.
    public func makeSaveTokenOp() -> SaveTokenOp { SaveTokenOp(storage: storage) }

    /// The sign-in scenario: PhoneOp → VerificationScenario → SaveTokenOp.
    public func makeAuthScenario() -> AuthScenario { AuthScenario.make(with: self) }

    /// The part of sign-in after the number: TermsOfUseOp (when required) → CodeOp, with PhoneOp
    /// first when the attempt's phone token expired.
    public func makeVerificationScenario() -> VerificationScenario { VerificationScenario.make(with: self) }

    /// Reads the saved sign-in and where it stands; pure.
    public func makeCheckSessionOp() -> CheckSessionOp { CheckSessionOp(api: api, storage: storage) }

    /// Revokes the saved token on the backend, then deletes it; idempotent.
    public func makeSignOutOp() -> SignOutOp { SignOutOp(api: api, storage: storage) }

    /// The app's main scenario, which starts the others as needed.
    public func makeAppScenario() -> AppScenario { AppScenario.make(with: self) }

    /// ``TermsOfUseOp`` for the saved sign-in, as a key service would launch it without the
    /// app scenario: check the session, accept changed terms, save the refreshed token.
    public func makeSavedSessionTermsScenario() -> AppScenario {
        AppScenario.make(with: self, name: "TermsOfUseOp", signsIn: false)
    }
}
