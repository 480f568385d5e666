import Foundation
import OperationsRunner
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole run in this process through ``InProcessRunner``: the run traps SIGINT while it lasts
/// and gives the process its handling back when it ends.
@Suite(.serialized)
struct InProcessRunnerTests {
    @Test func aRunInProcessLeavesCtrlCAsItWas() throws {
        let directory = temporaryStateDirectory("runner-sigint")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        // No other test's in-process run may change SIGINT handling between the two readings.
        let (before, result, after) = InProcessRunner<Chores>.alone {
            let before = sigintHandler()
            let result = chores.run("run", "tidy")
            return (before, result, sigintHandler())
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Tidied: 8."), "\(result)")
        #expect(result.stderr.contains("Polish: attempt 1 succeeded"), "\(result)")
        #expect(after == before, "SIGINT handling was not restored")
    }

    private func sigintHandler() -> Int {
        var action = sigaction()
        sigaction(SIGINT, nil, &action)
        #if canImport(Glibc)
            return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        #else
            return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self)
        #endif
    }
}
