import Foundation
import Testing

@testable import opctl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole run in this process, through the injected ``Console``: no process, no terminal.
struct InProcessRunTests {
    @Test func signInRunsInProcessAndLeavesCtrlCAsItWas() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opctl-inproc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var opctl = InProcessOpctl()
        opctl.environment["OPCTL_STATE_DIR"] = directory.path
        opctl.stdinLines = ["123456"]
        let before = sigintHandler()

        let result = opctl.run("run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code-stdin")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Signed in.\nAuth token "), "\(result)")
        #expect(result.stderr.contains("CodeOp: attempt 1 succeeded"))
        #expect(sigintHandler() == before, "SIGINT handling was not restored")
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
