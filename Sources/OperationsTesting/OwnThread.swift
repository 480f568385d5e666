import Foundation

/// Runs a blocking wait on a thread of its own and hands its result to an async caller.
///
/// On Linux the threads Swift Testing runs tests on and Dispatch's global queues share one pool
/// as wide as the machine: a blocking wait on one of them delays every service that answers on
/// a queue until the pool grows. A plain thread starves no one.
enum OwnThread {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
