import OperationsRunner

@testable import checkout

/// The `checkout` command run in this process: the runner's own harness, specialised.
typealias InProcessCheckout = InProcessRunner<CheckoutProgram>

extension InProcessRunner<CheckoutProgram> {
    /// Runs one command line with a fresh harness.
    static func run(_ arguments: [String]) -> CapturedRun {
        InProcessRunner().run(arguments)
    }
}
