import Foundation
import OperationsTestSupport
import Testing

/// Golden files for renderer output: the test target's declared resources (`Golden/`, copied
/// whole into its bundle), read from the bundle and recorded into the source folder beside this
/// file.
///
/// A missing golden file is recorded, and so is every golden file when the environment sets
/// `OPERATIONS_RECORD_GOLDEN=1`; a recording run still fails once, so it cannot pass unnoticed.
/// A mismatch fails with a line diff.
enum Golden {
    /// Where a recording run writes: the resources' source folder, not the built bundle.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Where a checking run reads: the bundle's copy of the resources.
    static func bundled(_ name: String) -> URL? {
        Bundle.module.resourceURL?.appendingPathComponent("Golden").appendingPathComponent(name)
    }

    static func expect(
        _ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = directory.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["OPERATIONS_RECORD_GOLDEN"] == "1"
        guard !recording, let bundled = bundled(name), let data = FileManager.default.contents(atPath: bundled.path)
        else {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
                Issue.record(
                    "Recorded golden file \(name); check it by eye and run the tests again.",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("Could not record golden file \(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        let diff = GoldenDiff.lines(expected, actual)
        Issue.record(
            "Output differs from golden file \(name) (- golden, + actual); re-record with OPERATIONS_RECORD_GOLDEN=1:\n\(diff)",
            sourceLocation: sourceLocation)
    }
}

/// A small line diff for golden mismatches: common prefix and suffix kept as context.
enum GoldenDiff {
    static func lines(_ old: String, _ new: String) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        let prefix = zip(oldLines, newLines).prefix(while: { $0 == $1 }).count
        let suffix = zip(oldLines.dropFirst(prefix).reversed(), newLines.dropFirst(prefix).reversed())
            .prefix(while: { $0 == $1 }).count
        var result: [String] = []
        for line in oldLines[max(prefix - 2, 0)..<prefix] { result.append("  " + line) }
        for line in oldLines[prefix..<(oldLines.count - suffix)] { result.append("- " + line) }
        for line in newLines[prefix..<(newLines.count - suffix)] { result.append("+ " + line) }
        let tail = oldLines.count - suffix
        for line in oldLines[tail..<min(tail + 2, oldLines.count)] { result.append("  " + line) }
        return result.joined(separator: "\n")
    }
}
