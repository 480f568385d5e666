import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 36: `runs --json` gives a finished run's hint from the run index alone. The listing that
/// first reads a run's journal keeps what its hint rests on beside its summary, so a later listing
/// reads no journal of the runs it shows.
struct RunsHintFromIndexEndToEndTests {
    @Test func runsJSONGivesAFailedRunsHintWithoutReadingItsJournal() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", "123456", "--backend",
            "sim:?fail=phone:5")
        #expect(run.status == 1, "\(run)")
        let id = try #require(runID(in: run.stderr), "\(run)")
        let before = try listed(id, sandbox)
        let shown = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        let hint = try #require(before["hint"] as? String, "\(before)")
        #expect(hint == shown["hint"] as? String, "runs --json and show --json: \(before)\n\(shown)")
        #expect(before["rerun"] as? String == shown["rerun"] as? String, "\(before)\n\(shown)")

        try garble(sandbox.journal(id))
        #expect(try sandbox.run("show", id).status != 0, "the journal no longer reads")
        let after = try listed(id, sandbox)
        #expect(after["hint"] as? String == hint, "\(after)")
        #expect(after["rerun"] as? String == before["rerun"] as? String, "\(after)")
    }

    /// The object `runs --json` gives run `id`.
    private func listed(_ id: String, _ sandbox: Sandbox) throws -> [String: Any] {
        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        return try #require(runs.first { $0["id"] as? String == id }, "\(listing)")
    }

    /// Overwrites the journal's first bytes in place and puts its modification time back, so its
    /// stamp (size, time, inode) is the one the index holds while its content no longer reads.
    private func garble(_ url: URL) throws {
        var status = stat()
        #expect(stat(url.path, &status) == 0)
        let handle = try FileHandle(forUpdating: url)
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "#"), count: 16))
        try handle.close()
        #if canImport(Darwin)
            // Darwin names the modification time `st_mtimespec`.
            var times = [status.st_atimespec, status.st_mtimespec]
        #else
            var times = [status.st_atim, status.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
    }
}
