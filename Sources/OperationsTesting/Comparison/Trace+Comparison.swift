public import Operations
import OperationsDiagrams

// MARK: - API

extension Trace {
    /// Compares the trace's messages with the messages a test expects.
    ///
    /// A pure function for test helpers to build on: it never fails a test itself.
    ///
    /// ```swift
    /// if let mismatch = tracer.trace.mismatch(expecting: [
    ///     .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
    ///     .reply(from: "AuthAPI", to: "PhoneOp", "token"),
    /// ]) {
    ///     Issue.record("\(mismatch)")
    /// }
    /// ```
    /// - Parameters:
    ///   - expected: The messages, in order.
    ///   - matching: ``TraceMatching/exhaustive`` (the default) fails on any unexpected message;
    ///     ``TraceMatching/subsequence`` only requires the expected ones in order.
    ///   - width: The width of each drawing in the report.
    /// - Returns: `nil` when the trace matches, otherwise what differs.
    public func mismatch(
        expecting expected: [TraceMessage], matching: TraceMatching = .exhaustive, width: Int = 80
    ) -> TraceMismatch? {
        let actual = messages
        let summary: String
        switch matching {
        case .exhaustive:
            guard actual != expected else { return nil }
            let common = zip(actual, expected).prefix(while: { $0 == $1 }).count
            if common == expected.count {
                summary = "unexpected message #\(common + 1): \(actual[common])"
            } else if common == actual.count {
                summary = "missing message #\(common + 1): \(expected[common])"
            } else {
                summary = "message #\(common + 1) is \(actual[common]), expected \(expected[common])"
            }
        case .subsequence:
            var position = 0
            var found = 0
            for message in expected {
                while position < actual.count && actual[position] != message { position += 1 }
                guard position < actual.count else { break }
                found += 1
                position += 1
            }
            guard found < expected.count else { return nil }
            summary = "expected message #\(found + 1) not found in order: \(expected[found])"
        }
        let renderer = TextDiagramRenderer(maxWidth: width)
        let expectedTrace = Self.sketch(of: expected, participants: participants)
        return TraceMismatch(
            expected: expected, actual: actual, matching: matching, summary: summary,
            diff: LineDiff.lines(expected.map(\.description), actual.map(\.description)),
            expectedDiagram: Self.drawing(expectedTrace, messages: expected, renderer: renderer),
            actualDiagram: Self.drawing(self, messages: actual, renderer: renderer))
    }

    private static func drawing(_ trace: Trace, messages: [TraceMessage], renderer: TextDiagramRenderer) -> String {
        do {
            return try renderer.render(trace)
        } catch {
            return "(no diagram: \(error))\n" + messages.map { "\($0)\n" }.joined()
        }
    }

    /// A trace holding just the expected messages, so they can be drawn like the actual one:
    /// participants keep their declarations from the actual trace where known (key services
    /// otherwise), and created services are released at the end.
    private static func sketch(of messages: [TraceMessage], participants: [Participant]) -> Trace {
        var known: [Participant.ID: Participant] = [:]
        for participant in participants where known[participant.id] == nil { known[participant.id] = participant }
        var trace = Trace()
        var declared = Set<Participant.ID>()
        var created: [Participant.ID] = []
        func declare(_ id: Participant.ID, as kind: Participant.Kind) {
            guard declared.insert(id).inserted else { return }
            trace.append(.declare(known[id] ?? Participant(id: id, name: id.rawValue, kind: kind)))
        }
        for message in messages {
            switch message.kind {
            case .launch:
                declare(message.from, as: .caller)
                declare(message.to, as: .operation)
                trace.append(.launch(message.to, by: message.from, message.label))
            case .finish:
                declare(message.from, as: .operation)
                declare(message.to, as: .caller)
                trace.append(.finish(message.from, to: message.to, message.label))
            case .create:
                declare(message.from, as: .keyService)
                declare(message.to, as: .contextService)
                if !created.contains(message.to) { created.append(message.to) }
                trace.append(.create(message.to, by: message.from, message.label))
            case .call, .reply, .async:
                declare(message.from, as: .keyService)
                declare(message.to, as: .keyService)
                let style: MessageStyle = message.kind == .call ? .call : message.kind == .reply ? .reply : .async
                trace.append(
                    TraceEvent(.message(from: message.from, to: message.to, label: message.label, style: style)))
            }
        }
        for service in created { trace.append(.release(service)) }
        return trace
    }
}
