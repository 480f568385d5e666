import Operations
import OperationsDiagrams
import Synchronization

/// The cases that measure text rendering of traces of 1,000, 10,000 and 100,000 messages.
enum RenderCases {
    static let all = [
        BenchCase.timed(
            "render.1k", "text rendering of a trace of 1,000 messages over 8 lifelines", rendering(1_000)),
        .timed(
            "render.10k", "text rendering of a trace of 10,000 messages over 8 lifelines", reference: "render.1k",
            rendering(10_000)),
        .timed(
            "render.10k.frames", "text rendering of 10,000 messages with loop and alt frames around every code step",
            reference: "render.10k", rendering(10_000, framed: true)),
        .timed(
            "render.100k", "text rendering of a trace of 100,000 messages over 8 lifelines (skipped by --quick)",
            reference: "render.10k", rendering(100_000)
        ).slow(),
    ]

    /// A body rendering the trace of `messages` messages; the trace is built once, on first use.
    private static func rendering(_ messages: Int, framed: Bool = false) -> @Sendable (Int) -> Void {
        { iterations in
            let trace = Self.trace(messages: messages, framed: framed)
            let renderer = TextDiagramRenderer()
            for _ in 0..<iterations {
                do {
                    BlackHole.consume(try renderer.render(trace).utf8.count)
                } catch {
                    fatalError("opctl-bench: the bench trace does not render: \(error)")
                }
            }
        }
    }

    /// Traces made once per size, shared by the rounds of a run.
    private static let traces = Mutex<[Int: Trace]>([:])

    /// A valid trace of `messages` messages (launches, calls, replies, async messages and
    /// finishes) over eight lifelines, plus the declarations they need, shaped like a sign-in run
    /// repeated: a scenario launches two operations in turn, which call key services and get
    /// replies, send asynchronous events, and finish back to it. `framed`, every code step also
    /// sits in a `loop` frame and every third one in an `alt` with an `else`, as retries and
    /// re-asks draw them.
    static func trace(messages: Int, framed: Bool = false) -> Trace {
        let key = framed ? -messages : messages
        if let trace = traces.withLock({ $0[key] }) { return trace }
        let caller = Participant.caller("App")
        let scenario = Participant.operation("AuthScenario")
        let phoneOp = Participant.operation("PhoneOp")
        let codeOp = Participant.operation("CodeOp")
        let api = Participant.keyService("AuthAPI")
        let analytics = Participant.keyService("Analytics")
        let backend = Participant.keyService("Backend")
        let keychain = Participant.keyService("Keychain")
        let store = Participant.keyService("TokenStore")
        var events: [TraceEvent] = [caller, scenario, phoneOp, codeOp, api, analytics, backend, keychain, store]
            .map { .declare($0) }
        events.append(.launch(scenario.id, by: caller.id, "launch(+1 555 0100)"))
        // Messages left to add before the scenario's own finish, which comes last.
        var left = messages - 2
        // An operation's launch, as many of its messages as fit, and its finish.
        func launch(_ op: Participant, _ label: String, _ inner: [TraceEvent], finish: String) {
            events.append(.launch(op.id, by: scenario.id, label))
            events += inner.prefix(max(0, left - 2))
            events.append(.finish(op.id, to: scenario.id, finish))
            left -= 2 + min(inner.count, max(0, left - 2))
        }
        var round = 0
        while left > 0 {
            guard left >= 2 else {
                events.append(.async(from: scenario.id, to: analytics.id, "signedIn"))
                left -= 1
                break
            }
            let phone = "+1 555 01\(round % 100)"
            let token = "tok…\(String(round % 4096, radix: 16))"
            launch(
                phoneOp, "launch(\(phone))",
                [
                    .call(from: phoneOp.id, to: api.id, "requestCode(phone: \(phone), locale: en_US)"),
                    .reply(from: api.id, to: phoneOp.id, token),
                    .async(from: phoneOp.id, to: analytics.id, "codeRequested(attempt: \(round % 7 + 1))"),
                ], finish: "onFinish(success(\(token)))")
            guard left >= 2 else { continue }
            let alternative = framed && round % 3 == 0
            if framed { events.append(.openFrame(.loop, "retry \(round % 3 + 1) of 3: timeout", by: scenario.id)) }
            if alternative { events.append(.openFrame(.alt, "wrong code, asked again", by: scenario.id)) }
            launch(
                codeOp, "launch(\(token))",
                [
                    .call(from: codeOp.id, to: backend.id, "verify(code: 123456, token: \(token))"),
                    .reply(from: backend.id, to: codeOp.id, round % 3 == 0 ? "wrongCode" : "verified"),
                    .call(from: codeOp.id, to: keychain.id, "store(\(token))"),
                    .reply(from: keychain.id, to: codeOp.id, "ok"),
                    .call(from: codeOp.id, to: store.id, "save(token: \(token), expires: 3600 s)"),
                    .reply(from: store.id, to: codeOp.id, "saved"),
                ], finish: "onFinish(success(signedIn))")
            if alternative {
                events.append(.branch("no attempts left"))
                events.append(.note(over: scenario.id, "the run ends"))
                events.append(.closeFrame)
            }
            if framed { events.append(.closeFrame) }
            round += 1
        }
        events.append(.finish(scenario.id, to: caller.id, "onFinish(success(\(round) rounds))"))
        let trace = Trace(events: events)
        traces.withLock { $0[key] = trace }
        return trace
    }
}
