import Dispatch

/// How the cases that finish on a queue send their work: in batches, waiting for each batch.
///
/// A wait every batch keeps the queue short and its thread in the same state in every round, so
/// both cases measure sending, running and finishing a block (Docs/Benchmarks.md, "The
/// benchmark's own method", says what sending all at once did).
enum DispatchBatches {
    /// Blocks sent between two waits.
    static let size = 256

    /// Calls `send` with `0..<iterations`, waiting on `group` after every ``size`` calls and at
    /// the end.
    static func run(_ iterations: Int, waitingOn group: DispatchGroup, _ send: (Int) -> Void) {
        var index = 0
        while index < iterations {
            let end = min(index + size, iterations)
            for item in index..<end { send(item) }
            group.wait()
            index = end
        }
    }
}
