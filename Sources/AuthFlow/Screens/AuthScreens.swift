public import Dispatch

/// The sign-in's router: makes the screens of the sign-in flow, a key service the operations get
/// from their factory. Each launch binds the view model it created (a context service) to a
/// screen made here and dismisses that screen before it ends; the diagrams draw this service
/// as `Router`.
public protocol AuthScreens: Sendable {
    /// A screen asking for the phone number.
    func makePhoneScreen() -> any PhoneScreen
    /// A screen showing the terms of use.
    func makeTermsScreen() -> any TermsScreen
    /// A screen asking for the SMS code.
    func makeCodeScreen() -> any CodeScreen

    /// Where the answers the screens give their prompts are delivered (`ScreenPrompt`): a
    /// global queue by default, so that a `@MainActor` screen that answers returns at once and
    /// the sign-in goes on off the main actor; `nil` for screens on no actor that answer on the
    /// asking thread (a terminal, a script), whose flow then stays on that thread.
    var promptDelivery: DispatchQueue? { get }
}

extension AuthScreens {
    /// A global queue: answers never run the sign-in on the screens' actor.
    public var promptDelivery: DispatchQueue? { .global(qos: .userInitiated) }
}

extension ScriptedScreens: AuthScreens {
    /// The script itself: one script answers every screen in turn.
    public func makePhoneScreen() -> any PhoneScreen { self }
    /// The script itself.
    public func makeTermsScreen() -> any TermsScreen { self }
    /// The script itself.
    public func makeCodeScreen() -> any CodeScreen { self }
    /// `nil`: the script answers on the asking thread, or on a queue of its own when its
    /// ``ScriptedScreens/Delivery`` says so, and the flow goes on there.
    public var promptDelivery: DispatchQueue? { nil }
}
