import Dispatch

/// How the cases that finish on a queue send their work: in batches, waiting for each batch.
///
/// Sent all at once, a round's blocks were drained by the queue's thread while the loop still
/// sent, or after it, depending on when that thread woke: one round read twice another, and two
/// full runs gave `op.async` / `dispatch.async` 1.27× and 2.52×. A wait every batch keeps the
/// queue short and its thread in the same state in every round, so both cases measure sending,
/// running and finishing a block, and the wait's cost is spread over a batch.
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
