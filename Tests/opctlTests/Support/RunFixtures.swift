import Foundation
import Operations
import OperationsJournal

/// Journals written by hand in the documented format, so a test can have runs of any status,
/// scenario and age in a state directory at once — without running opctl for each.
struct RunFixtures {
    /// How a fixture run ended.
    enum Ending: String {
        case succeeded, failed, cancelled
        /// No end recorded and no live process: the run reads as interrupted.
        case interrupted
    }

    let runsDirectory: URL

    /// Writes a run's journal (owner-only, like opctl's) and returns its id.
    ///
    /// - Parameters:
    ///   - ending: How the run ended.
    ///   - scenario: The scenario's name.
    ///   - startedAt: When it was created and started; its events follow a few milliseconds apart.
    ///   - siblings: Extensions of files to create beside it (`trace.jsonl`, `meta.json`).
    @discardableResult
    func write(
        _ ending: Ending, scenario: String = "auth", startedAt: Date, siblings: [String] = []
    ) throws -> RunID {
        try FileManager.default.createDirectory(
            at: runsDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let id = RunID.make(at: startedAt)
        let ms = Int64((startedAt.timeIntervalSince1970 * 1000).rounded(.down))
        let created = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(startedAt)
        let step = #"[{"index":0,"name":"PhoneOp"}]"#
        var lines = [
            #"{"format":"operations.journal","version":1,"run":"\#(id)","scenario":"\#(scenario)","createdAt":"\#(created)"}"#,
            #"{"event":"runStarted","at":\#(ms)}"#,
            #"{"event":"stepLaunched","at":\#(ms + 1),"address":\#(step),"attempt":1,"purity":"pure"}"#,
        ]
        let error =
            #"{"description":"broken","type":"TestError","transient":false,"cancelled":\#(ending == .cancelled)}"#
        switch ending {
        case .succeeded:
            lines.append(#"{"event":"stepSucceeded","at":\#(ms + 2),"address":\#(step),"attempt":1,"durationMs":1.0}"#)
            lines.append(#"{"event":"runFinished","at":\#(ms + 3),"status":"succeeded"}"#)
        case .failed, .cancelled:
            lines.append(
                #"{"event":"stepFailed","at":\#(ms + 2),"address":\#(step),"attempt":1,"durationMs":1.0,"error":\#(error),"willRetry":false}"#
            )
            lines.append(#"{"event":"runFinished","at":\#(ms + 3),"status":"\#(ending.rawValue)","error":\#(error)}"#)
        case .interrupted:
            break
        }
        try write(Data((lines.joined(separator: "\n") + "\n").utf8), to: journal(id))
        for sibling in siblings {
            try write(Data("{}".utf8), to: runsDirectory.appendingPathComponent("\(id).\(sibling)"))
        }
        return id
    }

    /// The journal file of a run.
    func journal(_ id: RunID) -> URL { runsDirectory.appendingPathComponent("\(id).jsonl") }

    /// Every file name in the runs directory.
    func fileNames() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: runsDirectory.path))
    }

    private func write(_ data: Data, to url: URL) throws {
        try data.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}

extension Sandbox {
    /// Hand-written journals in this sandbox's state directory.
    var fixtures: RunFixtures { RunFixtures(runsDirectory: runsDirectory) }
}
