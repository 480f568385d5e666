import AuthFlow
import Foundation
import Operations
import OperationsRunner

/// The sign-in screens of the command line: answers given as options are used first; what is
/// missing is asked on the terminal — only when standard input is one. Otherwise the screen
/// closes and records which option was missing, so the command can exit with a usage error.
final class TerminalScreens: AuthScreens, PhoneScreen, TermsScreen, CodeScreen {
    /// What the user decided about the terms with `--accept-terms` / `--decline-terms`.
    enum TermsDecision: String, Codable {
        case accept
        case decline
    }

    private struct State {
        var codes: [String]
        /// The code given last, offered again when the code step is relaunched after a transient
        /// failure (the code was never judged) — but not after a wrong code.
        var lastCode: String?
        var inputError: UsageError?
    }

    private let console: Console
    private let command: String?
    private let terms: TermsDecision?
    private let state: LockedState<State>

    /// Creates the screens: prompts go to `console`, `codes` are used in order, and a missing
    /// input's error points to `command`'s help.
    init(console: Console, terms: TermsDecision?, codes: [String], command: String? = nil) {
        self.console = console
        self.command = command
        self.terms = terms
        self.state = LockedState(State(codes: codes))
    }

    /// The missing or malformed input that closed a screen, if any.
    var inputError: UsageError? { state.withLock { $0.inputError } }

    func makePhoneScreen() -> any PhoneScreen { self }
    func makeTermsScreen() -> any TermsScreen { self }
    func makeCodeScreen() -> any CodeScreen { self }

    func dismiss() {}

    /// The terminal is read on the asking thread, and the sign-in goes on there.
    var promptDelivery: DispatchQueue? { nil }

    // MARK: - Phone

    func show(_ model: PhoneViewModel, _ prompt: ScreenPrompt<PhoneScreenEvent>) {
        // A number given on the command line goes straight on; one the backend rejected is shown
        // with the reason and asked for again, or the same number would be sent forever.
        if model.errorMessage == nil, !model.input.isEmpty, let phone = try? PhoneNumber(parsing: model.input) {
            return prompt.answer(.submitted(phone))
        }
        guard console.inputIsTerminal else {
            return close(
                UsageError(
                    "missing --phone NUMBER (standard input is not a terminal, so opctl cannot ask)", command: command),
                prompt)
        }
        console.err(console.styled(model.title, .bold) + "\n")
        if let message = model.errorMessage { console.note(console.styled("\(model.input): \(message)", .red)) }
        while let line = readAnswer("Phone number (e.g. +7 999 123-45-67): ") {
            do {
                return prompt.answer(.submitted(try PhoneNumber(parsing: line)))
            } catch {
                console.note(console.styled(error.description, .red))
            }
        }
        prompt.answer(.cancelled)
    }

    // MARK: - Terms

    func show(_ model: TermsViewModel, _ prompt: ScreenPrompt<TermsScreenEvent>) {
        switch terms {
        case .accept: return prompt.answer(.accepted)
        case .decline: return prompt.answer(.declined)
        case nil: break
        }
        guard console.inputIsTerminal else {
            return close(
                UsageError(
                    "the backend requires accepting the terms of use: pass --accept-terms or --decline-terms",
                    command: command),
                prompt)
        }
        let heading =
            model.isUpdate
            ? "The terms of use have changed (version \(model.terms.version))"
            : "Terms of use (version \(model.terms.version))"
        console.err("\n" + console.styled(heading, .bold) + "\n" + model.terms.text + "\n\n")
        while let answer = readAnswer("Accept the terms of use? [y/N] ") {
            switch answer.lowercased() {
            case "y", "yes": return prompt.answer(.accepted)
            case "", "n", "no": return prompt.answer(.declined)
            default: console.note("Please answer y or n.")
            }
        }
        prompt.answer(.declined)
    }

    // MARK: - Code

    func show(_ model: CodeViewModel, _ prompt: ScreenPrompt<CodeScreenEvent>) {
        let retriedAfterWrongCode = model.errorMessage != nil
        let next = state.withLock { state -> String? in
            if !state.codes.isEmpty {
                state.lastCode = state.codes.removeFirst()
            } else if retriedAfterWrongCode {
                state.lastCode = nil
            }
            return state.lastCode
        }
        if let given = next {
            do {
                return prompt.answer(.submitted(try SMSCode(given, length: model.codeLength)))
            } catch {
                return close(UsageError("--code: \(error.description)", command: command), prompt)
            }
        }
        guard console.inputIsTerminal else {
            return close(
                UsageError(
                    "missing --code CODE or --code-stdin (standard input is not a terminal, so opctl cannot ask)",
                    command: command),
                prompt)
        }
        if let message = model.errorMessage {
            let left = model.attemptsLeft.map { " \($0) attempt\($0 == 1 ? "" : "s") left." } ?? ""
            console.note(console.styled(message + left, .yellow))
        }
        while let line = readAnswer("\(model.prompt): ") {
            do {
                return prompt.answer(.submitted(try SMSCode(line, length: model.codeLength)))
            } catch {
                console.note(console.styled(error.description, .red))
            }
        }
        prompt.answer(.cancelled)
    }

    // MARK: - Internals

    private func readAnswer(_ text: String) -> String? {
        console.err(text)
        return console.readLine()?.trimmingCharacters(in: .whitespaces)
    }

    /// Nobody can answer: the option that was missing is kept for the command's hint, and the
    /// question ends as a cancellation (`PromptUnanswerable`), which undoes nothing.
    private func close<Event>(_ error: UsageError, _ prompt: ScreenPrompt<Event>) {
        state.withLock { $0.inputError = $0.inputError ?? error }
        prompt.cannotBeAnswered(because: error.message)
    }
}
