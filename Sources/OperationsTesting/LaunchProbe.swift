import Dispatch
public import Operations

/// Launches operations in tests and reports what the contract cares about: the result, how
/// many times `onFinish` was called, the diagnostics, and whether the operation was released.
///
/// Waiting has a timeout, so an operation that never finishes fails the test instead of
/// hanging it.
///
/// ```swift
/// let report = LaunchProbe.launch(PhoneOp(api: api), input: phone)
/// #expect(report.finishCount == 1)
/// #expect(report.released)
/// #expect(try report.value() == expectedToken)
/// ```
public enum LaunchProbe {
    /// Launches a freshly made operation, waits for its finish and its release, and reports.
    ///
    /// The probe keeps only a weak reference to the operation, so `released` tells whether the
    /// operation let go of itself after finishing. An operation someone else holds too (a
    /// scenario kept in a variable and probed as `LaunchProbe.launch(scenario, input: 1)`) is
    /// its holder's to release: the probe does not wait for it, and counts it as released.
    ///
    /// - Parameters:
    ///   - make: Makes the operation; the probe holds it only for the launch call.
    ///   - context: The launch context; its diagnostics are recorded (and forwarded).
    ///   - timeout: How long to wait for the finish and then for the release.
    /// - Returns: What happened.
    public static func launch<O: Op>(
        _ make: @autoclosure () -> O, context: OpContext<O.Input>, timeout: Duration = TestTimeout.standard
    ) -> LaunchReport<O.Output> {
        let recorder = DiagnosticsRecorder()
        let environment = context.environment.with(
            diagnostics: ForwardingDiagnostics(recorder: recorder, next: context.environment.diagnostics))
        var probed = context
        probed.environment = environment

        let deliveries = LockedState<[Result<O.Output, any Error>]>([])
        let finished = DispatchSemaphore(value: 0)
        weak var weakOperation: O?
        var name = String(describing: O.self)
        var heldElsewhere = false
        do {
            var operation = make()
            // A scenario kept in a variable is launched again and again, and its holder, not the
            // launch, decides when it goes: waiting for its release would only wait out the timeout.
            heldElsewhere = !isKnownUniquelyReferenced(&operation)
            weakOperation = operation
            if let named = operation as? any NamedOp { name = named.name }
            operation.launch(probed) { result in
                let first = deliveries.withLock { deliveries in
                    deliveries.append(result)
                    return deliveries.count == 1
                }
                if first { finished.signal() }
            }
        }
        let didFinish = finished.wait(timeout: .now() + timeout.dispatchInterval) == .success
        let released = didFinish && (heldElsewhere || waitUntil(timeout: timeout) { weakOperation == nil })
        let results = deliveries.withLock { $0 }
        return LaunchReport(
            operation: name, results: results, timedOut: !didFinish, released: released,
            diagnostics: recorder.diagnostics)
    }

    /// Launches a freshly made operation with `input` in the default environment.
    ///
    /// - Parameters:
    ///   - make: Makes the operation.
    ///   - input: The launch input.
    ///   - timeout: How long to wait for the finish and then for the release.
    /// - Returns: What happened.
    public static func launch<O: Op>(
        _ make: @autoclosure () -> O, input: O.Input, timeout: Duration = TestTimeout.standard
    ) -> LaunchReport<O.Output> {
        launch(make(), context: OpContext(input), timeout: timeout)
    }

    /// ``launch(_:context:timeout:)`` for async tests: the blocking wait runs on a thread of its
    /// own (``OwnThread``), holding none of the pool that Swift Testing and Dispatch share.
    ///
    /// ```swift
    /// let report = await LaunchProbe.awaitLaunch(factory.makeAuthScenario, context: context)
    /// #expect(report.keptContract)
    /// ```
    ///
    /// - Parameters:
    ///   - make: Makes the operation, on the waiting thread.
    ///   - context: The launch context; its diagnostics are recorded (and forwarded).
    ///   - timeout: How long to wait for the finish and then for the release.
    /// - Returns: What happened.
    public static func awaitLaunch<O: Op>(
        _ make: @escaping @Sendable () -> O, context: OpContext<O.Input>, timeout: Duration = TestTimeout.standard
    ) async -> LaunchReport<O.Output> {
        await OwnThread.run { launch(make(), context: context, timeout: timeout) }
    }

    /// Polls `condition`: only for releases, which have no callback to wait on.
    static func waitUntil(timeout: Duration, _ condition: () -> Bool) -> Bool {
        let end = ContinuousClock.now.advanced(by: timeout)
        while !condition() {
            guard ContinuousClock.now < end else { return false }
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .microseconds(200))
        }
        return true
    }
}

/// What ``LaunchProbe`` saw of one launch.
public struct LaunchReport<Output: Sendable>: Sendable {
    /// The operation's name: a scenario's own, otherwise its type's.
    public let operation: String
    /// Every delivery to `onFinish`, in order; exactly one when the contract held.
    public let results: [Result<Output, any Error>]
    /// Whether the wait for the first finish ran out.
    public let timedOut: Bool
    /// Whether the operation was deallocated after finishing; `true` as well for an operation
    /// that someone else held when it was launched, whose release is its holder's.
    public let released: Bool
    /// The diagnostics reported during the launch (a second finish, an abandonment).
    public let diagnostics: [OpDiagnostic]

    /// How many times `onFinish` was called.
    public var finishCount: Int { results.count }

    /// Whether the launch kept the contract: one finish, no diagnostics, released afterwards.
    public var keptContract: Bool {
        results.count == 1 && released
            && diagnostics.allSatisfy { $0.kind == .lateFinishDropped }
    }

    /// The first result's value.
    ///
    /// - Returns: The output of the first finish.
    /// - Throws: ``LaunchProbeError/neverFinished(operation:)`` when it never finished, or the
    ///   operation's error.
    public func value() throws -> Output {
        guard let first = results.first else { throw LaunchProbeError.neverFinished(operation: operation) }
        return try first.get()
    }

    /// The first result's error, or `nil` when it succeeded or never finished.
    public var error: (any Error)? {
        guard case .failure(let error)? = results.first else { return nil }
        return error
    }
}

/// Why a probed launch gave no value.
public enum LaunchProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `onFinish` was not called before the probe's timeout.
    case neverFinished(operation: String)

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .neverFinished(let operation): "\(operation) did not finish before the timeout"
        }
    }
}

private struct ForwardingDiagnostics: OpDiagnostics {
    let recorder: DiagnosticsRecorder
    let next: any OpDiagnostics

    func report(_ diagnostic: OpDiagnostic) {
        recorder.report(diagnostic)
        // The host's own diagnostics may assert on a second finish; a probe expects it. The
        // platform's defaults are not forwarded: both assert.
        if !Self.isPlatformDefault(next) { next.report(diagnostic) }
    }

    private static func isPlatformDefault(_ diagnostics: any OpDiagnostics) -> Bool {
        // The unified log's diagnostics exist only on Apple platforms.
        #if canImport(os)
            if diagnostics is LoggerDiagnostics { return true }
        #endif
        return diagnostics is StandardErrorDiagnostics
    }
}
