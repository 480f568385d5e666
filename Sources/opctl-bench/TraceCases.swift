import Operations

/// The cases that measure tracing: its cost when off, and one recorded message when on.
enum TraceCases {
    /// `trace.off`: the `op.sync` operation plus the trace hook an operation writes (a message
    /// through its completion's scope), launched with the default context, whose `trace` is
    /// `nil`.
    static let tracingOffLaunches: @Sendable (Int) -> Void = { iterations in
        let op = TracedDoubleOp()
        for index in 0..<iterations {
            op.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }

    /// `trace.message`: `TraceScope.message(to:_:)` into an `InMemoryTracer`, a fresh tracer per
    /// round, as a traced run starts with one.
    static let recordedMessages: @Sendable (Int) -> Void = { iterations in
        let tracer = InMemoryTracer()
        let scope = TraceScope.root(tracer, caller: .operation("PhoneOp"))
        let api = Participant.keyService("AuthAPI")
        tracer.record(.declare(api))
        for _ in 0..<iterations {
            scope.message(to: api, "requestCode(phone)")
        }
        BlackHole.consume(tracer.trace.events.count)
    }
}

/// `SyncDoubleOp` with the hook a traced operation has: it records its call to a key service
/// through its completion's trace scope, which does nothing when tracing is off.
final class TracedDoubleOp: PureOp {
    private static let doubler = Participant.keyService("Doubler")

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let input = context.input
        completion.trace?.message(to: Self.doubler, "double(\(input))")
        completion.succeed(input &* 2)
    }
}
