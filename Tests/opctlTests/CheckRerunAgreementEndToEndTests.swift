import Foundation
import OperationsTestSupport
import Testing

/// Issue 26 over the built binary: a journal with one byte changed in a middle line is judged
/// alike by `opctl check` and `opctl rerun`, before and after the rerun.
struct CheckRerunAgreementEndToEndTests {
    @Test func aByteChangedInAMiddleLineIsRefusedByBothWithOneReason() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run(
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "000000")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let journal = sandbox.journal(id)
        try JournalDamage.byteChangedInAMiddleLine.apply(to: try Data(contentsOf: journal)).write(to: journal)

        let check = try sandbox.run("check")
        #expect(check.status == 1, "\(check)")
        let prefix = "  \(id) (auth, failed): cannot be resumed: "
        let line = try #require(check.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(check)")
        let reason = String(line.dropFirst(prefix.count))
        #expect(reason.contains("damaged at line 4"), "\(check)")

        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 2, "\(rerun)")
        #expect(rerun.stderr.contains("cannot resume run \(id): \(reason)"), "\(rerun)")
        #expect(rerun.stderr.contains("opctl rerun \(id) --code CODE --relaunch-in-doubt"), "\(rerun)")

        let again = try sandbox.run("check")
        #expect(again.stdout == check.stdout, "the refused rerun changed check's verdict:\n\(again)")
    }
}
