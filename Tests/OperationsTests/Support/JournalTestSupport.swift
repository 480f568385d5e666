import Foundation
import Operations
import OperationsJournal
import Testing

/// A fresh directory under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("journal-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Like ``ScriptedOps``, and also keeps every input it was launched with, so a test can prove
/// a resumed step got the same input as the attempt that failed.
final class RecordingOps: Sendable {
    private let script: LockedState<[Result<Int, TestError>]>
    private let inputs = LockedState<[Int]>([])

    init(_ script: [Result<Int, TestError>] = []) {
        self.script = LockedState(script)
    }

    /// The inputs of every launch so far, in order.
    var launches: [Int] { inputs.withLock { $0 } }

    func make() -> RecordingOp { RecordingOp(source: self) }

    fileprivate func next(input: Int) -> Result<Int, any Error> {
        inputs.withLock { $0.append(input) }
        let outcome = script.withLock { $0.isEmpty ? .success(input + 1) : $0.removeFirst() }
        return outcome.mapError { $0 }
    }
}

/// Finishes synchronously with the next outcome of its ``RecordingOps`` (by default `input + 1`).
final class RecordingOp: PureOp {
    private let source: RecordingOps

    fileprivate init(source: RecordingOps) {
        self.source = source
    }

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).finish(source.next(input: context.input))
    }
}

/// A value with no `Codable` conformance: a journal cannot record it.
struct Opaque: Sendable, Equatable {
    let number: Int
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = LockedState(0)

    var count: Int { value.withLock { $0 } }

    func increment() {
        value.withLock { $0 += 1 }
    }
}

/// Wraps an `Int` in an ``Opaque``, counting launches.
final class WrapOp: PureOp {
    private let launches: Counter

    init(launches: Counter) {
        self.launches = launches
    }

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Opaque>) {
        launches.increment()
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(Opaque(number: context.input))
    }
}

/// Unwraps an ``Opaque``.
final class UnwrapOp: PureOp {
    func launch(_ context: OpContext<Opaque>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input.number)
    }
}

/// Counts the syncs a durable journal asks for instead of syncing.
final class SyncCounter: Sendable {
    private let calls = LockedState(0)

    var count: Int { calls.withLock { $0 } }

    var durability: ScenarioJournal.Durability {
        .durable(syncingWith: JournalSync { _ in self.calls.withLock { $0 += 1 } })
    }
}

/// Launches `scenario` with `input` and waits for its result.
func run<Input, Output>(
    _ scenario: Scenario<Input, Output>, _ input: Input, environment: OpEnvironment,
    cancellation: CancellationToken? = nil
) -> Result<Output, any Error>? {
    let box = FinishBox<Output>()
    scenario.launch(OpContext(input, cancellation: cancellation, environment: environment), onFinish: box.onFinish)
    return box.wait()
}

/// The event names of a journal file's lines after the header.
func eventNames(in url: URL) throws -> [String] {
    try journalLines(url).dropFirst().map { try #require($0["event"] as? String) }
}

/// Every complete line of a journal file as a JSON object.
func journalLines(_ url: URL) throws -> [[String: Any]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

extension StepAddress {
    /// `[(0, "First"), (1, "Second")]` as an address.
    init(_ components: (Int, String)...) {
        self.init(path: components.map { Component(index: $0.0, name: $0.1) })
    }
}

/// Holds the completion a ``ManualOp`` hands over until the test finishes it.
final class ParkedCompletion: Sendable {
    private let completion = LockedState<Completion<Int>?>(nil)

    var park: @Sendable (Completion<Int>) -> Void {
        { completion in self.completion.withLock { $0 = completion } }
    }

    func finish(with value: Int) {
        completion.withLock { $0 }?.succeed(value)
    }
}

/// `text` as a journal written before lines carried checksums: a test that edits a journal to
/// stand for an older writer (no key, another fingerprint) drops them, or the reader would
/// rightly call every edited line damaged.
func withoutChecksums(_ text: String) -> String {
    text.replacingOccurrences(of: #","sum":"[0-9a-f]{8}""#, with: "", options: .regularExpression)
}
