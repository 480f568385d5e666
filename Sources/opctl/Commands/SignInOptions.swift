import OperationsRunner

/// Help lines several of opctl's commands share: the state directory's with opctl's name, and
/// the sign-in backend's, which only opctl has.
extension CommonOptions {
    /// `--state-dir DIR` with `$OPCTL_STATE_DIR` and the opctl folder.
    static var stateDirHelp: String { stateDirHelp(program: Opctl.name) }
    /// The simulator's options by example; `run`, `rerun` and `serve` parse them alike (``BackendSpec``).
    static let simulatorExample = "sim:?code=123456&terms=1&termsVersion=2&latency=50&fail=code.verify:2,phone:1"
    /// `--backend SPEC`.
    static let backendHelp = """
          --backend SPEC         sim: (default) — the embedded simulator, with options
                                 \(simulatorExample)
                                 (termsChange=code.send: the terms change mid-run)
                                 or an http:// / https:// base URL of a real server
        """
}
