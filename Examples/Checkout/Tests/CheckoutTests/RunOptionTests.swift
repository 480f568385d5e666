import Foundation
import OperationsRunner
import Testing

/// `checkout run`'s own options refuse what they cannot use, before anything is journaled.
@Suite struct RunOptionTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")

    @Test(arguments: ["--reserve-failures", "--confirm-failures"])
    func aCountThatIsNotOneIsAUsageErrorBeforeAnyRun(option: String) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        for bad in ["abc", "-1", "2.5"] {
            let run = checkout("run", "checkout", option, bad)
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("\(option) takes a whole number of 0 or more, not '\(bad)'"), "\(run)")
        }
        let listed = checkout("runs")
        #expect(listed.stdout.isEmpty && listed.stderr.contains("No runs yet"), "nothing was journaled: \(listed)")
    }

    @Test(arguments: ["--cart", "--card", "--coupon", "--decline"])
    func anEmptyValueIsAUsageErrorBeforeAnyRun(option: String) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        for empty in ["", "  "] {
            let run = checkout("run", "checkout", "\(option)=\(empty)")
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("\(option) needs a value that is not empty"), "\(run)")
        }
        let listed = checkout("runs")
        #expect(listed.stdout.isEmpty && listed.stderr.contains("No runs yet"), "nothing was journaled: \(listed)")
    }

    /// Runs `checkout ARGUMENTS --state-dir DIR` in this process.
    private func checkout(_ arguments: String...) -> CapturedRun {
        InProcessCheckout.run(arguments + ["--state-dir", stateDirectory.path])
    }
}
