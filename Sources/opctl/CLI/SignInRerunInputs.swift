import AuthFlow
import OperationsJournal
import OperationsRunner

/// What a sign-in's rerun may need that its journal does not keep, and the endings a rerun cannot
/// help, read from the journal alone: the runner makes every hint of a run from these
/// (``RunHint``) and checks a rerun's command line against them before it launches anything.
enum SignInRerunInputs {
    /// The phone, when the run recorded none; the terms decision, unless the run was given
    /// `--accept-terms`; the code, which is never kept.
    static let declared: [RerunInput] = [
        RerunInput(step: "PhoneOp", option: SignInOptions.phone) { record in
            signsIn(record) && ((try? record.input(as: PhoneNumber?.self)) ?? nil) == nil
        },
        RerunInput(
            step: "TermsOfUseOp", option: SignInOptions.acceptTerms, alternatives: [SignInOptions.declineTerms]
        ) { record in
            signsIn(record) && showsTerms(record)
                && record.settings["terms"] != TerminalScreens.TermsDecision.accept.rawValue
        },
        RerunInput(step: "CodeOp", option: SignInOptions.code, alternatives: [SignInOptions.codeStdin]) { record in
            signsIn(record)
        },
    ]

    /// Whether the run's sign-in steps are ahead of it: `app` signs in only when it found no saved
    /// sign-in, which it shows by reaching the phone step.
    private static func signsIn(_ record: JournalRecord) -> Bool {
        record.scenario != "app" || record.steps.contains { $0.name == "PhoneOp" }
    }

    /// Whether the run's backend shows terms of use: the simulator says so in its options; a
    /// server says so only while the run goes on.
    private static func showsTerms(_ record: JournalRecord) -> Bool {
        guard let spec = record.settings["backend"], case .simulator(let options)? = try? BackendSpec(parsing: spec)
        else { return true }
        return options.termsRequired
    }

    /// What to do instead of a rerun for an ending a rerun cannot help, or `nil`: the failure
    /// outlives the run (the number rejected, the sign-in attempt expired or locked, the terms
    /// changed under it), or the saved sign-in was revoked elsewhere. The way on is a new run,
    /// given what this one was given that a new one needs again.
    static func rerunCannotHelp(_ record: JournalRecord) -> String? {
        guard let error = record.error, let name = RunnableScenario.named(record.scenario)?.name else { return nil }
        if error.type == String(describing: SignedOutElsewhere.self) {
            return "Sign in again: " + newRun(name, record)
        }
        guard error.type == String(describing: AuthError.self), !error.isCancellation else { return nil }
        let text = error.description
        // A rerun keeps the number the run started with, so it would be rejected again.
        if text.contains(AuthError.invalidPhone.description) {
            return "Check the number and start a new sign-in: " + newRun(name, record)
        }
        // A rerun would replay the acceptance of the old terms; a new sign-in shows the new ones.
        if text.contains(fixedPart(of: .termsOutdated(currentVersion: nil))) {
            return "Start a new sign-in to read and accept them: " + newRun(name, record)
        }
        if text.contains(AuthError.unauthorized.description) || text.contains(fixedPart(of: .locked(retryAfter: nil))) {
            return "Start a new sign-in: " + newRun(name, record)
        }
        return nil
    }

    /// `opctl run NAME` with what a new run needs that this one was given: the phone, the terms
    /// decision when the backend shows terms, the code, and the backend when it is not the
    /// default — without the faults injected into this run's process (`fail`, `termsChange`),
    /// which are each process's own (Docs/Architecture.md, *The simulator's state*).
    private static func newRun(_ name: String, _ record: JournalRecord) -> String {
        var words = ["opctl", "run", name, "--phone NUMBER"]
        if showsTerms(record) { words.append("--accept-terms") }
        words.append("--code CODE")
        if let backend = record.settings["backend"].map(withoutFaults), backend != BackendSpec.defaultSpec {
            words.append("--backend \(RunHint.shellQuoted(backend))")
        }
        return words.joined(separator: " ")
    }

    /// A `--backend` spec without the simulator's injected faults.
    private static func withoutFaults(_ spec: String) -> String {
        guard spec.hasPrefix("sim:") else { return spec }
        let query = spec.dropFirst("sim:".count).drop { $0 == "?" }
        let kept = query.split(separator: "&").filter { pair in
            !["fail", "termsChange"].contains(String(pair.prefix { $0 != "=" }))
        }
        return kept.isEmpty ? BackendSpec.defaultSpec : "sim:?" + kept.joined(separator: "&")
    }

    /// The start of an error's sentence that does not depend on its values.
    private static func fixedPart(of error: AuthError) -> String {
        String(error.description.prefix { $0 != ";" && $0 != "(" && $0 != "." })
    }
}
