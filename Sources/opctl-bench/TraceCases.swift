import Operations

/// The cases that measure tracing: its cost when off, and one recorded message when on.
enum TraceCases {
    /// The `op.sync` operation plus the trace hook an operation writes, launched with the default
    /// context, whose `trace` is `nil`.
    static let off = BenchCase.timed(
        "trace.off", "an operation with a trace hook, launched with tracing off (context.trace == nil)",
        reference: "op.sync", BenchCase.launches { TracedDoubleOp() })

    /// A fresh tracer per round, as a traced run starts with one.
    static let message = BenchCase.timed(
        "trace.message", "one message recorded with tracing on: TraceScope.message(to:_:) into InMemoryTracer"
    ) { iterations in
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
