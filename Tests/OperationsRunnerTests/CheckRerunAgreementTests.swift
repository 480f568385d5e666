import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import OperationsTestSupport
import Testing

/// Issue 26: `check` and `rerun` give the same verdict on every journal, damaged or not, and a
/// run `check` calls stranded is refused by `rerun` with the reason `check` gave. Each damaged
/// journal goes through both commands in this process, through the library calls they make.
@Suite(.serialized)
struct CheckRerunAgreementTests {
    /// What `check --json` says of one run.
    private struct Verdict: Equatable {
        let resumable: Bool
        let reason: String?
    }

    private func verdict(_ chores: InProcessRunner<Chores>, _ id: String) throws -> Verdict {
        let check = chores.run("check", "--json")
        let objects = try #require(try parseJSON(check.stdout) as? [[String: Any]], "\(check)")
        let entry = try #require(objects.first { $0["id"] as? String == id }, "\(check)")
        let resumable = try #require(entry["resumable"] as? Bool)
        #expect(check.status == (resumable ? 0 : 1), "\(check)")
        return Verdict(resumable: resumable, reason: entry["reason"] as? String)
    }

    @Test(arguments: JournalDamage.allCases)
    func checkAndRerunAgree(_ damage: JournalDamage) throws {
        let directory = temporaryStateDirectory("runner-agree")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        let failed = chores.run("run", "tidy", "--fail")
        #expect(failed.status == 1, "\(failed)")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let journal = RunStore(stateDirectory: directory).url(for: try RunID(validating: id))
        try damage.apply(to: try Data(contentsOf: journal)).write(to: journal)

        let before = try verdict(chores, id)
        let rerun = chores.run("rerun", id)
        if before.resumable {
            #expect(rerun.status == 0, "check said resumable, rerun did not resume:\n\(rerun.stderr)")
            #expect(try verdict(chores, id) == Verdict(resumable: true, reason: nil))
        } else {
            let reason = try #require(before.reason)
            #expect(rerun.status != 0, "check said '\(reason)', rerun resumed:\n\(rerun.stderr)")
            #expect(
                rerun.stderr.contains("cannot resume run \(id): \(reason)"),
                "rerun refused with another reason than check's '\(reason)':\n\(rerun.stderr)")
            #expect(!rerun.stderr.contains(": attempt"), "a refused rerun launched a step:\n\(rerun.stderr)")
            #expect(try verdict(chores, id) == before, "the refused rerun changed check's verdict")
        }
    }
}
