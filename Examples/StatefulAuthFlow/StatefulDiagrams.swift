import AuthFlow
public import AuthFlowDiagrams
public import Operations

/// The diagrams of the stateful variants, traced from real runs against the simulator as
/// `AuthDiagrams` traces the pure ones, and committed beside them in `Diagrams/`; drawn here
/// because no product carries these operations (`opctl diagram` does not offer them).
public enum StatefulDiagrams {
    /// What can be drawn, in catalogue order.
    public static let names = ["PhoneOp.stateful", "TermsOfUseOp.stateful", "CodeOp.stateful"]

    /// The trace of a real run of `name`, one of ``names``.
    ///
    /// - Throws: `AuthDiagrams.DiagramError`.
    public static func trace(of name: String) throws(AuthDiagrams.DiagramError) -> Trace {
        do {
            let bench = try DiagramBench()
            let phoneTokens = InMemoryPhoneTokenStore()
            switch name {
            case "PhoneOp.stateful":
                return try bench.traced {
                    try bench.factory.makeStatefulPhoneOp(phoneTokens: phoneTokens).runToFinish(
                        $0.with(input: bench.phone))
                }
            case "TermsOfUseOp.stateful":
                // The phone token read from storage, the accepted one written back.
                try bench.factory.makeStatefulPhoneOp(phoneTokens: phoneTokens).runToFinish(OpContext(bench.phone))
                return try bench.traced {
                    try bench.factory.makeStatefulTermsOfUseOp(phoneTokens: phoneTokens).runToFinish($0)
                }
            case "CodeOp.stateful":
                try bench.factory.makeStatefulPhoneOp(phoneTokens: phoneTokens).runToFinish(OpContext(bench.phone))
                try bench.factory.makeStatefulTermsOfUseOp(phoneTokens: phoneTokens).runToFinish(OpContext(()))
                let phone = try PhoneNumber(parsing: "+7 999 123-45-67")
                return try bench.traced {
                    try bench.factory.makeStatefulCodeOp(phoneTokens: phoneTokens).runToFinish($0.with(input: phone))
                }
            default:
                throw AuthDiagrams.DiagramError.unknown(name)
            }
        } catch let error as AuthDiagrams.DiagramError {
            throw error
        } catch {
            throw .runFailed(name, error)
        }
    }
}
