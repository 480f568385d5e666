import Synchronization

/// Where every benchmark case puts what it computed, so the optimiser cannot delete the work.
///
/// A relaxed atomic store is opaque to the optimiser; the functions are `@inline(never)` so the
/// sink is the same call in every case (Docs/Benchmarks.md, "The benchmark's own method").
enum BlackHole {
    private static let sink = Atomic<Int>(0)

    /// Consumes a value.
    @inline(never)
    static func consume(_ value: Int) {
        sink.store(value, ordering: .relaxed)
    }

    /// Consumes an operation's outcome: the output, or a marker for an error.
    @inline(never)
    static func consumeResult(_ result: Result<Int, any Error>) {
        switch result {
        case .success(let value): sink.store(value, ordering: .relaxed)
        case .failure: sink.store(-1, ordering: .relaxed)
        }
    }
}
