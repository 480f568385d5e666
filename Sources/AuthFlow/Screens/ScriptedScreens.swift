import Dispatch
public import Operations

/// Phone, terms and code screens that answer from a script and record what they were shown: the
/// screens of tests and of the CLI's non-interactive mode.
///
/// Each screen takes its answers in order. A show the script has no answer for is answered with
/// the ending answer (`cancelled` / `declined`) and recorded in ``unanswered``, so a test that
/// asserts `unanswered.isEmpty` fails loudly when the flow asked more than it expected.
///
/// ```swift
/// let screens = ScriptedScreens(
///     phone: [.submitted(phone)], terms: [.accepted], code: [.submitted(wrong), .submitted(right)])
/// // … run the flow …
/// #expect(screens.shown.count == 4)
/// ```
public final class ScriptedScreens: PhoneScreen, TermsScreen, CodeScreen {
    /// One thing a screen was asked to do.
    public enum Record: Sendable, Hashable {
        /// The phone screen showed a model.
        case phone(PhoneViewModel)
        /// The terms screen showed a model.
        case terms(TermsViewModel)
        /// The code screen showed a model.
        case code(CodeViewModel)
        /// A screen was dismissed.
        case dismissed
    }

    /// Which screen ran out of answers.
    public enum Screen: String, Sendable, Hashable {
        /// The phone screen.
        case phone
        /// The terms screen.
        case terms
        /// The code screen.
        case code
    }

    /// When answers are delivered.
    public enum Delivery: Sendable, Hashable {
        /// Before `show` returns, on the caller's thread: the strictest test of re-entrancy.
        case immediate
        /// Shortly after, on a Dispatch queue, as a person would.
        case asynchronous
    }

    private struct State {
        var phone: [PhoneScreenEvent]
        var terms: [TermsScreenEvent]
        var code: [CodeScreenEvent]
        var records: [Record] = []
        var unanswered: [Screen] = []
    }

    private let state: LockedState<State>
    private let delivery: Delivery

    /// Creates scripted screens.
    public init(
        phone: [PhoneScreenEvent] = [], terms: [TermsScreenEvent] = [], code: [CodeScreenEvent] = [],
        delivery: Delivery = .immediate
    ) {
        state = LockedState(State(phone: phone, terms: terms, code: code))
        self.delivery = delivery
    }

    /// Everything the screens were asked to do, in order.
    public var records: [Record] { state.withLock { $0.records } }

    /// The screens that were shown with no scripted answer left, in order.
    public var unanswered: [Screen] { state.withLock { $0.unanswered } }

    /// Records the model and answers with the next scripted phone event.
    public func show(_ model: PhoneViewModel, _ prompt: ScreenPrompt<PhoneScreenEvent>) {
        let event = next(.phone(model), screen: .phone, fallback: .cancelled) { $0.phone.popFirst() }
        deliver { prompt.answer(event) }
    }

    /// Records the model and answers with the next scripted terms event.
    public func show(_ model: TermsViewModel, _ prompt: ScreenPrompt<TermsScreenEvent>) {
        let event = next(.terms(model), screen: .terms, fallback: .declined) { $0.terms.popFirst() }
        deliver { prompt.answer(event) }
    }

    /// Records the model and answers with the next scripted code event.
    public func show(_ model: CodeViewModel, _ prompt: ScreenPrompt<CodeScreenEvent>) {
        let event = next(.code(model), screen: .code, fallback: .cancelled) { $0.code.popFirst() }
        deliver { prompt.answer(event) }
    }

    /// Records the dismissal.
    public func dismiss() {
        state.withLock { $0.records.append(.dismissed) }
    }

    private func next<Event: Sendable>(
        _ record: Record, screen: Screen, fallback: Event, take: (inout State) -> Event?
    ) -> Event {
        state.withLock { state in
            state.records.append(record)
            if let event = take(&state) { return event }
            state.unanswered.append(screen)
            return fallback
        }
    }

    private func deliver(_ answer: @escaping @Sendable () -> Void) {
        switch delivery {
        case .immediate: answer()
        case .asynchronous: DispatchQueue.global().async(execute: answer)
        }
    }
}

extension Array {
    fileprivate mutating func popFirst() -> Element? {
        isEmpty ? nil : removeFirst()
    }
}
