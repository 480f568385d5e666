import Foundation

/// Receives the contract violations of operations, so a host can log them and a test can assert
/// on them.
///
/// The engine never crashes a release build for a misbehaving operation: it keeps the contract
/// (one finish delivered) and reports what it ignored here.
public protocol OpDiagnostics: Sendable {
    /// Receives what happened, and to which operation, on the thread where it happened.
    func report(_ diagnostic: OpDiagnostic)
}

/// A contract violation observed by ``Completion`` or a ``ScreenPrompt``.
public struct OpDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of violation.
    public enum Kind: String, Sendable, Hashable {
        /// The operation finished a launch a second time; the second finish was ignored.
        case finishedTwice
        /// The operation released its completion without finishing; the launch was finished
        /// with ``OpError/abandoned(operation:)``.
        case abandoned
        /// The real work finished after cancellation or the deadline had already finished the
        /// launch; expected, and ignored.
        case lateFinishDropped
        /// A screen answered a ``ScreenPrompt`` a second time (a double tap); the second answer
        /// was ignored.
        case answeredTwice
    }

    /// What happened.
    public let kind: Kind
    /// The operation's type name.
    public let operation: String

    /// Creates a diagnostic.
    public init(kind: Kind, operation: String) {
        self.kind = kind
        self.operation = operation
    }

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch kind {
        case .finishedTwice: "\(operation) finished twice; the second finish was ignored"
        case .abandoned: "\(operation) was released without finishing"
        case .lateFinishDropped: "\(operation) finished after it was cancelled or timed out"
        case .answeredTwice: "\(operation) was answered twice; the second answer was ignored"
        }
    }
}

/// The default diagnostics where there is no unified log (Linux; see
/// ``OpEnvironment/defaultDiagnostics``): one line on standard error per violation, and in debug builds an
/// assertion on a second finish, so the bug is found where it happens.
public struct StandardErrorDiagnostics: OpDiagnostics {
    private let assertsInDebug: Bool

    /// Creates the diagnostics; a second finish stops a debug build when `assertsInDebug`.
    public init(assertsInDebug: Bool = true) {
        self.assertsInDebug = assertsInDebug
    }

    /// Records one diagnostic; called on the thread where it happened.
    public func report(_ diagnostic: OpDiagnostic) {
        guard diagnostic.kind != .lateFinishDropped else { return }
        FileHandle.standardError.write(Data("operations: \(diagnostic)\n".utf8))
        if assertsInDebug && diagnostic.kind == .finishedTwice {
            assertionFailure(diagnostic.description)
        }
    }
}
