import Dispatch

/// Runs async benchmark work from the synchronous runner.
enum AsyncBlocking {
    /// Runs `body` in a detached task on the global executor and blocks the calling thread until
    /// it returns. The caller must not be a thread of the cooperative pool (`opctl-bench` calls it from
    /// the main thread; tests from a thread of their own).
    static func run(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await body()
            done.signal()
        }
        done.wait()
    }

    /// Awaits `launch` for each index below `iterations`, one after another on one task, each
    /// output consumed (`-1` for a throw): the loop every awaited case runs.
    static func awaitEach(_ iterations: Int, _ launch: @escaping @Sendable (Int) async throws -> Int) {
        run {
            for index in 0..<iterations {
                do {
                    BlackHole.consume(try await launch(index))
                } catch {
                    BlackHole.consume(-1)
                }
            }
        }
    }
}
