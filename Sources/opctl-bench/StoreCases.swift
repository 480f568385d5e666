import Foundation
import Operations
import OperationsJournal

/// The cases that measure a run store as it grows: opening one, and resuming a run whose journal
/// has 100,000 lines (Docs/Benchmarks.md, "A state directory of 50,000 runs"). They need no
/// `opctl`: their journals are written through the journal's own API.
enum StoreCases {
    /// `store.openEmpty`: a store opened on a state directory that has no runs.
    static let openingEmpty: @Sendable (Int) -> Void = { iterations in
        let directory = manyRuns(0)
        for _ in 0..<iterations { BlackHole.consume(RunStore(stateDirectory: directory).removedDrafts.count) }
    }

    /// `store.open`: a store opened on a state directory of 50,000 runs (``BenchScale/runs``).
    static let opening: @Sendable (Int) -> Void = { iterations in
        let directory = manyRuns(BenchScale.current.runs)
        for _ in 0..<iterations { BlackHole.consume(RunStore(stateDirectory: directory).removedDrafts.count) }
    }

    /// `journal.resume100k`: an interrupted run with a journal of 100,000 lines
    /// (``BenchScale/journalLines``) resumed — read, replayed to where it stopped, opened for
    /// appending — and closed again.
    static let resuming: @Sendable (Int) -> Void = { iterations in
        let (directory, id) = LongJournal.run
        for _ in 0..<iterations { LongJournal.resume(id, in: directory) }
    }

    /// `journal.resume100k.memory`: how much more a process that resumes the long journal holds
    /// at its peak than one that only opens the store, in bytes; each in a process of its own
    /// (this program started again), so the peak is the resume's alone.
    static let resumingMemory: @Sendable (Int) -> Int = { _ in
        let (directory, id) = LongJournal.run
        let resumed = LongJournal.childPeak([directory.path, id.rawValue])
        let idle = LongJournal.childPeak([directory.path])
        return max(0, resumed - idle)
    }

    /// A state directory of `count` runs: copies of one short journal under ids of their own,
    /// made once and kept in the temporary directory.
    static func manyRuns(_ count: Int) -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opctl-bench-store-\(count)")
        let complete = directory.appendingPathComponent("complete")
        if FileManager.default.fileExists(atPath: complete.path) { return directory }
        try? FileManager.default.removeItem(at: directory)
        let store = RunStore(stateDirectory: directory)
        do {
            let journal = try store.create(scenario: "BenchScenario")
            try journal.close()
            let bytes = try Data(contentsOf: store.url(for: journal.runID))
            try FileManager.default.removeItem(at: store.url(for: journal.runID))
            for index in 0..<count {
                try bytes.write(to: store.url(for: ScaleFixture.id(index)))
            }
        } catch {
            fatalError("opctl-bench: the store case could not write its runs: \(error)")
        }
        try? FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: complete.path, contents: Data())
        return directory
    }
}

/// An interrupted run of a long scenario: as many lines as the benchmark's scale says
/// (``BenchScale/journalLines``) of steps that each succeeded, written once through the
/// journal's own API and kept in the temporary directory.
enum LongJournal {
    /// The option that makes this program a child that resumes one run and exits
    /// (``StoreCases/resumingMemory``): `opctl-bench --resume-child REPORT STATE-DIR [RUN-ID]`.
    static let childOption = "--resume-child"

    /// The state directory and the run, made on first use.
    static var run: (URL, RunID) { make(lines: BenchScale.current.journalLines) }

    /// Resumes the run and closes its journal again, or stops the benchmark saying why.
    static func resume(_ id: RunID, in directory: URL) {
        do {
            let journal = try RunStore(stateDirectory: directory).resume(id)
            BlackHole.consume(journal.resumedFrom?.steps.count ?? 0)
            try journal.close()
        } catch {
            fatalError("opctl-bench: the long journal could not be resumed: \(error)")
        }
    }

    /// The peak resident size of a child started with `arguments`, as the child itself reports
    /// it: the `ru_maxrss` a parent gets from `wait4` counts the memory the child shared with
    /// this program before it started (glibc's `posix_spawn`), and so reports this program's
    /// own peak (Docs/Benchmarks.md).
    static func childPeak(_ arguments: [String]) -> Int {
        let report = FileManager.default.temporaryDirectory
            .appendingPathComponent("opctl-bench-peak-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: report) }
        let waited = ProcessCases.runSelf([childOption, report.path] + arguments) ?? 0
        guard let text = try? String(contentsOf: report, encoding: .utf8), let peak = Int(text) else { return waited }
        return peak
    }

    /// The child's work: resume `arguments[2]` in the store at `arguments[1]`, or only open the
    /// store when no run is given, then write its peak resident size in bytes to `arguments[0]`.
    static func runChild(_ arguments: [String]) -> Int32 {
        guard arguments.count > 1 else { return 2 }
        let directory = URL(fileURLWithPath: arguments[1])
        if arguments.count > 2, let id = try? RunID(validating: arguments[2]) {
            resume(id, in: directory)
        } else {
            BlackHole.consume(RunStore(stateDirectory: directory).removedDrafts.count)
        }
        if let peak = ResidentMemory.peakBytes() {
            try? Data(String(peak).utf8).write(to: URL(fileURLWithPath: arguments[0]))
        }
        return 0
    }

    private static func make(lines: Int) -> (URL, RunID) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opctl-bench-long-\(lines)")
        let store = RunStore(stateDirectory: directory)
        if let existing = try? store.summaries().first?.id { return (directory, existing) }
        do {
            let journal = try store.create(scenario: "LongScenario")
            // The header is one line; every step adds a launch and a success.
            for index in 0..<(lines - 1) / 2 {
                let address = StepAddress(path: [.init(index: index, name: "Step\(index)")])
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepLaunched, scenario: "LongScenario", address: address, attempt: 1, duration: nil,
                        value: JournalCases.PhoneRequest(
                            phone: "+15551234567", locale: "en_US", attempt: index, acceptsTerms: true)))
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepSucceeded, scenario: "LongScenario", address: address, attempt: 1,
                        duration: .microseconds(1_250), value: "token-\(index)"))
            }
            try journal.close()
            return (directory, journal.runID)
        } catch {
            fatalError("opctl-bench: the long journal could not be written: \(error)")
        }
    }
}
