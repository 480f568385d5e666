import Foundation
import OperationsJournal

/// A state directory as a QA machine holds it after months of use: tens of thousands of runs of
/// the sign-in, most succeeded, a fifth failed at the code, one in fifty interrupted. What
/// `runs`, `show`, `check` and `prune` are measured against (Docs/Benchmarks.md, "A state
/// directory of 50,000 runs").
///
/// Running 50,000 sign-ins would take the machine most of half an hour, so a few are run for
/// real by the built `opctl` (the templates) and each run of the directory is a copy of one of
/// them under an id of its own: its journal and every file beside it (`<id>.<anything>`). A
/// copy keeps its template's bytes, so its header still names the template's id; nothing that
/// lists, shows or checks a run reads its id from there (the file name is the run's id), and the
/// cost of reading a journal is the same. An interrupted run is a failed one without its last
/// line and without its sync mark, as a process killed before it synced the end leaves it.
///
/// The directory is kept in the temporary directory between runs of the benchmark, marked
/// complete once made, and made again when the mark is missing.
enum ScaleFixture {
    /// The state directory of as many runs as the benchmark's scale says
    /// (``BenchScale/runs``: 50,000, or 2,000 with `--quick`), made on first use.
    static var stateDirectory: URL { make(runs: BenchScale.current.runs) }

    /// A failed run of the directory, the kind `show ID` is asked about.
    static var failedRun: RunID { id(1) }

    /// The id of the `index`th copy: one a minute from 2026-01-01, random bits from the index,
    /// so the directory is the same each time it is made.
    static func id(_ index: Int) -> RunID {
        RunID.make(at: Date(timeIntervalSince1970: 1_767_225_600 + Double(index) * 60), random: UInt32(index))
    }

    /// What the `index`th copy is a copy of.
    static func kind(_ index: Int) -> Kind {
        if index % 50 == 0 { return .interrupted }
        return index % 5 == 1 ? .failed : .succeeded
    }

    enum Kind {
        case succeeded, failed, interrupted
    }

    /// Makes the state directory of `count` runs, unless a complete one is already there.
    static func make(runs count: Int) -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opctl-bench-scale-\(count)")
        let complete = directory.appendingPathComponent("complete")
        if FileManager.default.fileExists(atPath: complete.path) { return directory }
        try? FileManager.default.removeItem(at: directory)
        let runs = directory.appendingPathComponent("runs")
        try? FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        let templates = makeTemplates()
        for index in 0..<count {
            let name = id(index).rawValue
            for file in templates[kind(index)] ?? [] {
                // A plain write: FileManager's createFile writes each file through a temporary and a rename.
                do {
                    try file.bytes.write(to: runs.appendingPathComponent(name + file.suffix))
                } catch {
                    fatalError("opctl-bench: could not write the runs of \(directory.path): \(error)")
                }
            }
        }
        _ = FileManager.default.createFile(atPath: complete.path, contents: Data())
        return directory
    }

    /// A file of a template run: what follows the run's id in its name, and its bytes.
    struct TemplateFile {
        let suffix: String
        let bytes: Data
    }

    /// Runs the templates for real: a sign-in that succeeds and one that fails at the code,
    /// in a state directory of their own; the interrupted one is made from the failed one.
    private static func makeTemplates() -> [Kind: [TemplateFile]] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("opctl-bench-templates-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var templates: [Kind: [TemplateFile]] = [:]
        for (kind, code) in [(Kind.succeeded, "123456"), (.failed, "000000")] {
            ProcessCases.run(
                ["run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", code], stateDirectory: directory)
            // The files of the newest run: the one just made.
            let runs = directory.appendingPathComponent("runs")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runs.path)) ?? []
            let ids = names.compactMap { name -> String? in
                guard name.hasSuffix(".jsonl"), !name.hasPrefix(".") else { return nil }
                let id = String(name.dropLast(".jsonl".count))
                return (try? RunID(validating: id)) == nil ? nil : id
            }
            guard let id = ids.sorted().last else {
                templates[kind] = []
                continue
            }
            templates[kind] = names.filter { $0.hasPrefix(id + ".") }.compactMap { name in
                guard let bytes = FileManager.default.contents(atPath: runs.appendingPathComponent(name).path) else {
                    return nil
                }
                return TemplateFile(suffix: String(name.dropFirst(id.count)), bytes: bytes)
            }
        }
        let failed = templates[.failed] ?? []
        templates[.interrupted] = failed.compactMap { file in
            if file.suffix.hasSuffix(".synced") { return nil }
            guard file.suffix == ".jsonl" else { return file }
            // Without its last line (the run's end) and without the mark that synced it.
            var lines = file.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            lines.removeLast(2)
            return TemplateFile(suffix: file.suffix, bytes: Data(lines.joined(separator: [UInt8(ascii: "\n")])) + [10])
        }
        guard templates.values.allSatisfy({ $0.contains { $0.suffix == ".jsonl" } }) else {
            fatalError("opctl-bench: the built opctl made no run to copy in \(directory.path)")
        }
        return templates
    }
}
