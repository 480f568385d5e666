import AuthFlow
import AuthSimulator
import Foundation
import HTTPTestSupport
import Operations
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Contract 15 against the built binary: the journal's writes start failing part-way (a real
/// failing `write(2)`, through an LD_PRELOAD library), and no request goes out whose key is not
/// on disk; the run exits 1 naming the journal and the error, and never says it signed in.
@Suite(.serialized)
struct FailingJournalEndToEndTests {
    /// Every key a journal's launch lines hold, with the request keys derived from them (a
    /// verification's names its code, 123456 here).
    private func keysOnDisk(_ url: URL) -> Set<String> {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var keys: Set<String> = []
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: #""idempotencyKey":"[0-9a-f]+""#, options: .regularExpression) else {
                continue
            }
            let raw = line[range].dropFirst(#""idempotencyKey":""#.count).dropLast()
            guard let key = IdempotencyKey(String(raw)) else { continue }
            keys.insert(key.rawValue)
            for request in ["submit", "accept", "send", "verify:123456", "sign-out"] {
                keys.insert(key.forRequest(request).rawValue)
            }
        }
        return keys
    }

    @Test(arguments: [(2, ENOSPC), (3, EIO), (4, ENOSPC), (5, EIO), (6, ENOSPC), (7, EDQUOT)])
    func aRunWhoseJournalStopsWritingSendsNothingWhoseKeyIsNotOnDisk(after writes: Int, error: Int32) throws {
        let sandbox = try Sandbox()
        guard case .success(let shim) = try FailingJournalShim.build(in: sandbox.root) else {
            Issue.record("no C compiler to build the LD_PRELOAD library")
            return
        }
        let backend = SimulatedBackend()
        let server = try RecordingServer(serving: backend)
        defer { server.stop() }
        let result = try sandbox.run(
            "run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", "123456", "--backend",
            server.baseURL.absoluteString,
            environment: [
                "LD_PRELOAD": shim.path, "FAIL_JOURNAL_AFTER": "\(writes)", "FAIL_JOURNAL_ERRNO": "\(error)",
            ])
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("Signed in"), "\(result)")
        #expect(result.stderr.contains(String(cString: strerror(error))), "the error is named:\n\(result)")
        #expect(result.stderr.contains("journal"), "\(result)")

        let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path)) ?? []
        let journals = names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".trace.jsonl") && !$0.hasPrefix(".") }
        let onDisk = journals.reduce(into: Set<String>()) {
            $0.formUnion(keysOnDisk(sandbox.runsDirectory.appendingPathComponent($1)))
        }
        for request in server.requests {
            guard let key = request.headers["Idempotency-Key"] else { continue }
            #expect(onDisk.contains(key), "\(request.path) went out with a key the journal does not hold")
        }
    }

    /// Issue 36: a run whose step failed and whose journal failed beside it (the last lines of a
    /// failing run could not be written) says so first: what it says of its steps may not be on
    /// disk. The failing write is swept over the lines after the last launch.
    @Test func aJournalThatFailsBesideAFailedStepIsNamedFirst() throws {
        let sandbox = try Sandbox()
        guard case .success(let shim) = try FailingJournalShim.build(in: sandbox.root) else {
            Issue.record("no C compiler to build the LD_PRELOAD library")
            return
        }
        var namedBoth = false
        for writes in 11...13 {
            let result = try sandbox.run(
                "run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", "123456", "--backend",
                "sim:?fail=code.verify:9",
                environment: ["LD_PRELOAD": shim.path, "FAIL_JOURNAL_AFTER": "\(writes)", "FAIL_JOURNAL_ERRNO": "28"])
            #expect(result.status == 1, "\(result)")
            let first = result.stderr.split(separator: "\n").first { $0.hasPrefix("opctl: ") } ?? ""
            guard result.stderr.contains("journal failed") else { continue }
            #expect(first.hasPrefix("opctl: the run's journal failed, so the run stopped"), "\(result)")
            if first.contains("the run had also failed: VerificationScenario › CodeOp failed") { namedBoth = true }
        }
        #expect(namedBoth, "no write in the sweep failed after the code step's last launch")
    }
}
