import Foundation
import OperationsRunner
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C at any moment from the first instruction of opctl's own code ends it with a documented
/// status, never by the signal, and is never lost. Before, an interrupt in the
/// process's first milliseconds, while its libraries initialised and before `main` installed the
/// handler, killed it by SIGINT; and one arriving while a command swapped in its own trap was
/// dropped, leaving `opctl serve` running after it had promised that Ctrl-C stops it.
///
/// Each test starts the built binary and interrupts it at the first moment it can answer: as soon
/// as `/proc/PID/status` shows SIGINT caught, which is now the dynamic loader handing over to the
/// executable's `.preinit_array`, before any library initialiser or `main`. Not earlier: until
/// the loader has mapped and relocated the Swift and Foundation libraries (5–10 ms on a loaded
/// machine) no code of the process runs, so no process can turn a signal then into an exit
/// status. 20 times each; every wait has a deadline and nothing sleeps.
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
struct InterruptAtStartTests {
    static let attempts = 20

    /// A sign-in whose every answer takes a minute, so the process is still running whenever the
    /// signal lands: before the run starts (the early handler) or during it (the run's trap,
    /// which cancels and journals); both are "interrupted (Ctrl-C)", 130, in the exit-status
    /// table of `opctl --help`.
    @Test func aRunInterruptedAtItsFirstMomentExitsInterrupted() throws {
        let sandbox = try Sandbox()
        var statuses: [String: Int] = [:]
        for _ in 0..<Self.attempts {
            let process = try sandbox.start([
                "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--backend",
                "sim:?latency=60000",
            ])
            try process.waitUntilCatchingSIGINT()
            process.interrupt()
            let result = try process.wait()
            statuses[result.signal.map { "signal \($0)" } ?? "exit \(result.status)", default: 0] += 1
        }
        #expect(statuses == ["exit \(ExitStatus.interrupted)": Self.attempts], "\(statuses)")
        #expect(ExitStatus.interrupted == 130, "the early handler exits with the literal 130")
    }

    /// `serve` runs until Ctrl-C: an interrupt before it traps the signal is the runner's 130, one
    /// after is serve's "stopped by Ctrl-C", 0 — and none is dropped while the trap is set up
    /// (the server would then run on and the wait below time out).
    @Test func serveInterruptedAtItsFirstMomentNeverRunsOn() throws {
        let sandbox = try Sandbox()
        var statuses: [String: Int] = [:]
        for _ in 0..<Self.attempts {
            let process = try sandbox.start(["serve", "--port", "0"])
            try process.waitUntilCatchingSIGINT()
            process.interrupt()
            let result = try process.wait()
            statuses[result.signal.map { "signal \($0)" } ?? "exit \(result.status)", default: 0] += 1
        }
        let documented: Set = ["exit \(ExitStatus.interrupted)", "exit \(ExitStatus.success)"]
        #expect(Set(statuses.keys).isSubset(of: documented), "\(statuses)")
    }
}

extension OpctlProcess {
    /// Why a process never caught SIGINT in time.
    struct NeverCaught: Error, CustomStringConvertible {
        let pid: Int32
        var description: String { "process \(pid) did not catch SIGINT within 10 s (or ended first)" }
    }

    /// Waits until the process catches SIGINT (bit 1 of `SigCgt` in `/proc/PID/status`): the first
    /// moment an interrupt can be anything but fatal.
    ///
    /// - Throws: ``NeverCaught`` after 10 s, or when the process has gone.
    func waitUntilCatchingSIGINT() throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { break }
            let caught = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
                .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) }
            if let caught, caught & (1 << (SIGINT - 1)) != 0 { return }
            // A busy look at a file the kernel writes: no sleep, so the signal goes at the first
            // reading that allows it.
            sched_yield()
        }
        throw NeverCaught(pid: pid)
    }
}
