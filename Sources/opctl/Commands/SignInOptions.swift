import OperationsRunner

/// The options of the sign-in that more than one of opctl's commands takes, each declared once
/// (``CommandOption``): `run` and `rerun` parse them, list them in their usage lines and print
/// their help lines from these values.
enum SignInOptions {
    /// The simulator's options by example; `run`, `rerun` and `serve` parse them alike (``BackendSpec``).
    static let simulatorExample = "sim:?code=123456&terms=1&termsVersion=2&latency=50&fail=code.verify:2,phone:1"
    static let phone = CommandOption("--phone", value: "NUMBER", "The phone number, e.g. '+7 999 123-45-67'")
    static let acceptTerms = CommandOption("--accept-terms", "Accept the terms of use if they are shown")
    static let declineTerms = CommandOption(
        "--decline-terms", "Decline them (the run ends as cancelled, exit \(ExitStatus.cancelled))",
        or: acceptTerms.name)
    static let code = CommandOption("--code", value: "CODE", "The SMS code")
    static let codeStdin = CommandOption(
        "--code-stdin", "Read the SMS code from the first line of standard input", or: code.name)
    static let backend = CommandOption(
        "--backend", value: "SPEC",
        """
        sim: (default) — the embedded simulator, with options
        \(simulatorExample)
        (termsChange=code.send: the terms change mid-run)
        or the http:// base URL of a real server (https:// on macOS)
        """)
}
