import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

@testable import opctl

/// Makes a state directory with thousands of real runs, to time `opctl runs` and `opctl prune`
/// against from outside (a release build, a whole-process timer). Slow, so it runs only with
/// `OPCTL_STRESS=1`:
///
/// ```sh
/// OPCTL_STRESS=1 OPCTL_STRESS_DIR=/tmp/runs2k swift test --filter opctlTests.RunsStressTests
/// swift build -c release && OPCTL_STATE_DIR=/tmp/runs2k .build/release/opctl runs
/// ```
///
/// `OPCTL_STRESS_RUNS` sets the count (default 2,000). The runs are real sign-ins against the
/// simulator, run in this process: seven in ten succeed, two fail at the code, one declines the
/// terms, each with its journal and trace, like a busy machine's state directory.
@Suite(.serialized)
struct RunsStressTests {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["OPCTL_STRESS"] == "1", "set OPCTL_STRESS=1 to make thousands of runs"))
    func manyRunsOnDisk() throws {
        let count = Int(Self.environment["OPCTL_STRESS_RUNS"] ?? "") ?? 2_000
        let directory = URL(
            fileURLWithPath: Self.environment["OPCTL_STRESS_DIR"]
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("opctl-stress-\(count)").path)
        let store = RunStore(stateDirectory: directory)
        let existing = try store.summaries().count
        var opctl = InProcessOpctl()
        opctl.environment["OPCTL_STATE_DIR"] = directory.path
        for index in existing..<count {
            let answers: [String] =
                switch index % 10 {
                case 7, 8: ["--accept-terms", "--code", "000000"]
                case 9: ["--decline-terms"]
                default: ["--accept-terms", "--code", "123456"]
                }
            let result = opctl.run(["run", "auth", "--phone", "+79991234567"] + answers)
            #expect([0, 1, 3].contains(result.status), "\(result.stderr)")
        }
        // Time the listing that builds the index, then one that uses it.
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("runs/index.cache"))
        let clock = ContinuousClock()
        var listed = 0
        let first = try clock.measure { listed = try store.summaries().count }
        let second = try clock.measure { listed = try store.summaries().count }
        #expect(listed == count)
        print("\(count) runs in \(directory.path); listing in process: \(first) building the index, \(second) from it")
    }
}
