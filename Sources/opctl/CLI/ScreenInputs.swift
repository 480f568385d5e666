import AuthFlow
import Foundation
import OperationsRunner

/// The answers for the screens given on the command line.
struct ScreenInputs {
    /// The terms decision; a rerun fills it from the run's metadata when not given again.
    var terms: TerminalScreens.TermsDecision?
    let codes: [String]
    let command: String

    init(_ arguments: ParsedArguments, console: Console, command: String) throws {
        self.command = command
        switch (arguments.has(SignInOptions.acceptTerms), arguments.has(SignInOptions.declineTerms)) {
        case (true, true): throw UsageError("--accept-terms and --decline-terms exclude each other", command: command)
        case (true, false): terms = .accept
        case (false, true): terms = .decline
        case (false, false): terms = nil
        }
        if arguments.has(SignInOptions.codeStdin) {
            guard arguments.value(SignInOptions.code) == nil else {
                throw UsageError("--code and --code-stdin exclude each other", command: command)
            }
            guard let line = console.readLine() else {
                throw UsageError("--code-stdin: standard input is empty", command: command)
            }
            codes = [line.trimmingCharacters(in: .whitespaces)]
        } else {
            codes = arguments.value(SignInOptions.code).map { [$0] } ?? []
        }
        for code in codes where !(4...12).contains(code.count) || !code.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw UsageError("--code: the SMS code has digits only (4 to 12 of them)", command: command)
        }
    }

    /// Checks the answers against what the embedded simulator is known to ask, so a code of the
    /// wrong length or a missing answer is a usage error before any run starts. A real server
    /// says what it asks only while the run goes on.
    ///
    /// - Parameters:
    ///   - needsTerms: Whether the run may still show the terms screen (a new sign-in, or a
    ///     rerun that has not got past the terms).
    ///   - needsCode: Whether the run will still show the code screen.
    func validate(for backend: BackendSpec, needsTerms: Bool, needsCode: Bool, console: Console, command: String)
        throws
    {
        guard case .simulator(let options) = backend else { return }
        for code in codes where code.count != options.code.count {
            throw UsageError("--code: The code from the SMS has \(options.code.count) digits.", command: command)
        }
        guard !console.inputIsTerminal else { return }
        let showsTerms = needsTerms && options.termsRequired
        if showsTerms && terms == nil {
            throw UsageError(
                "missing --accept-terms or --decline-terms (the backend shows terms of use; standard input is not a terminal, so opctl cannot ask)",
                command: command)
        }
        if needsCode && codes.isEmpty && !(showsTerms && terms == .decline) {
            throw UsageError(
                "missing --code CODE or --code-stdin (standard input is not a terminal, so opctl cannot ask)",
                command: command)
        }
    }

    func screens(_ console: Console) -> TerminalScreens {
        TerminalScreens(console: console, terms: terms, codes: codes, command: command)
    }
}
