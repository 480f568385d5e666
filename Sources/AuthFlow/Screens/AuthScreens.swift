/// Makes the screens of the sign-in flow: a key service the operations get from their factory,
/// so every launch creates its own screen (a context service) and releases it before it ends.
public protocol AuthScreens: Sendable {
    /// A screen asking for the phone number.
    func makePhoneScreen() -> any PhoneScreen
    /// A screen showing the terms of use.
    func makeTermsScreen() -> any TermsScreen
    /// A screen asking for the SMS code.
    func makeCodeScreen() -> any CodeScreen
}

extension ScriptedScreens: AuthScreens {
    /// The script itself: one script answers every screen in turn.
    public func makePhoneScreen() -> any PhoneScreen { self }
    /// The script itself.
    public func makeTermsScreen() -> any TermsScreen { self }
    /// The script itself.
    public func makeCodeScreen() -> any CodeScreen { self }
}
