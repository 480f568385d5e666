package import Operations
import OperationsTesting

/// A tiny store of side effects for compensation tests: every operation it makes records its
/// launch (name, input, key), then finishes as the script for its name says.
package final class EffectLedger: Sendable {
    package enum Outcome: Sendable {
        case succeed
        case fail(TestError)
        /// Never finishes, as in a process killed during the launch.
        case hang
    }

    package struct Launch: Sendable, Equatable {
        package let name: String
        package let input: Int
        package let key: IdempotencyKey?

        package init(name: String, input: Int, key: IdempotencyKey?) {
            self.name = name
            self.input = input
            self.key = key
        }
    }

    private let scripts: LockedState<[String: [Outcome]]>
    private let launched = LockedState<[Launch]>([])
    private let parked = LockedState<[Completion<Int>]>([])

    package init(_ scripts: [String: [Outcome]] = [:]) {
        self.scripts = LockedState(scripts)
    }

    /// Every launch, in order.
    package var launches: [Launch] { launched.withLock { $0 } }
    /// The names launched, in order.
    package var names: [String] { launches.map(\.name) }

    /// A step with side effects called `name`, adding 1 to its input when it succeeds.
    package func step(_ name: String) -> Step<Int, Int> {
        Step(name) { EffectOp(name: name, ledger: self) }
    }

    fileprivate func launch(_ name: String, _ context: OpContext<Int>, _ completion: Completion<Int>) {
        launched.withLock { $0.append(Launch(name: name, input: context.input, key: context.idempotencyKey)) }
        let outcome = scripts.withLock { scripts -> Outcome in
            guard var script = scripts[name], !script.isEmpty else { return .succeed }
            let next = script.removeFirst()
            scripts[name] = script
            return next
        }
        switch outcome {
        case .succeed: completion.succeed(context.input + 1)
        case .fail(let error): completion.fail(error)
        case .hang: parked.withLock { $0.append(completion) }
        }
    }
}

/// An operation with side effects whose outcome its ledger decides.
package final class EffectOp: Op {
    package let name: String
    package let ledger: EffectLedger

    package init(name: String, ledger: EffectLedger) {
        self.name = name
        self.ledger = ledger
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        ledger.launch(name, context, Completion(retaining: self, context: context, onFinish: onFinish))
    }
}

/// Reserve → Charge → Confirm, Reserve undone by Release and Charge by Refund.
package func saga(_ ledger: EffectLedger, confirmRetry: RetryPolicy = .never) -> Scenario<Int, Int> {
    Scenario("Saga") { chain in
        chain
            .then(ledger.step("Reserve").compensated(by: ledger.step("Release")))
            .then(
                ledger.step("Charge").compensated(by: ledger.step("Refund")) { input, output in input * 100 + output }
            )
            .then(ledger.step("Confirm").retrying(confirmRetry))
    }
}
