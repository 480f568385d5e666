package import Foundation
package import Operations
package import OperationsJournal
import Testing

/// A fresh directory under the system's temporary directory, removed when `body` returns.
package func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("journal-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Like ``ScriptedOps``, and also keeps every input it was launched with, so a test can prove
/// a resumed step got the same input as the attempt that failed.
package final class RecordingOps: Sendable {
    private let script: LockedState<[Result<Int, TestError>]>
    private let inputs = LockedState<[Int]>([])

    package init(_ script: [Result<Int, TestError>] = []) {
        self.script = LockedState(script)
    }

    /// The inputs of every launch so far, in order.
    package var launches: [Int] { inputs.withLock { $0 } }

    package func make() -> RecordingOp { RecordingOp(source: self) }

    fileprivate func next(input: Int) -> Result<Int, any Error> {
        inputs.withLock { $0.append(input) }
        let outcome = script.withLock { $0.isEmpty ? .success(input + 1) : $0.removeFirst() }
        return outcome.mapError { $0 }
    }
}

/// Finishes synchronously with the next outcome of its ``RecordingOps`` (by default `input + 1`).
package final class RecordingOp: PureOp {
    private let source: RecordingOps

    fileprivate init(source: RecordingOps) {
        self.source = source
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).finish(source.next(input: context.input))
    }
}

/// A value with no `Codable` conformance: a journal cannot record it.
package struct Opaque: Sendable, Equatable {
    package let number: Int

    package init(number: Int) { self.number = number }
}

/// Counts calls from any thread.
package final class Counter: Sendable {
    package init() {}

    private let value = LockedState(0)

    package var count: Int { value.withLock { $0 } }

    package func increment() {
        value.withLock { $0 += 1 }
    }
}

/// Wraps an `Int` in an ``Opaque``, counting launches.
package final class WrapOp: PureOp {
    private let launches: Counter

    package init(launches: Counter) {
        self.launches = launches
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Opaque>) {
        launches.increment()
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(Opaque(number: context.input))
    }
}

/// Unwraps an ``Opaque``.
package final class UnwrapOp: PureOp {
    package init() {}

    package func launch(_ context: OpContext<Opaque>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input.number)
    }
}

/// Counts the syncs a durable journal asks for instead of syncing.
package final class SyncCounter: Sendable {
    package init() {}

    private let calls = LockedState(0)

    package var count: Int { calls.withLock { $0 } }

    package var durability: ScenarioJournal.Durability {
        .durable(syncingWith: JournalSync { _ in self.calls.withLock { $0 += 1 } })
    }
}

/// Launches `scenario` with `input` and waits for its result.
package func run<Input, Output>(
    _ scenario: Scenario<Input, Output>, _ input: Input, environment: OpEnvironment,
    cancellation: CancellationToken? = nil
) -> Result<Output, any Error>? {
    let box = FinishBox<Output>()
    scenario.launch(OpContext(input, cancellation: cancellation, environment: environment), onFinish: box.onFinish)
    return box.wait()
}

/// The event names of a journal file's lines after the header.
package func eventNames(in url: URL) throws -> [String] {
    try journalLines(url).dropFirst().map { try #require($0["event"] as? String) }
}

/// Every complete line of a journal file as a JSON object.
package func journalLines(_ url: URL) throws -> [[String: Any]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

extension StepAddress {
    /// `[(0, "First"), (1, "Second")]` as an address.
    package init(_ components: (Int, String)...) {
        self.init(path: components.map { Component(index: $0.0, name: $0.1) })
    }
}

/// Holds the completion a ``ManualOp`` hands over until the test finishes it.
package final class ParkedCompletion: Sendable {
    package init() {}

    private let completion = LockedState<Completion<Int>?>(nil)

    package var park: @Sendable (Completion<Int>) -> Void {
        { completion in self.completion.withLock { $0 = completion } }
    }

    package func finish(with value: Int) {
        completion.withLock { $0 }?.succeed(value)
    }
}

/// `text` as a journal written before lines carried checksums: a test that edits a journal to
/// stand for an older writer (no key, another fingerprint) drops them, or the reader would
/// rightly call every edited line damaged.
package func withoutChecksums(_ text: String) -> String {
    text.replacingOccurrences(of: #","sum":"[0-9a-f]{8}""#, with: "", options: .regularExpression)
}
