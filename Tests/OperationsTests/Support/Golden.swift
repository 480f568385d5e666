import Foundation
import Testing

/// Golden files for renderer output, kept under `Tests/OperationsTests/Golden/Golden.docc/`.
///
/// SwiftPM treats a `.docc` directory as a documentation catalog and builds nothing from it, so
/// the golden files need no declaration in Package.swift and cause no "unhandled files" warning;
/// they are found from this file's `#filePath`.
///
/// A missing golden file is recorded, and so is every golden file when the environment sets
/// `OPERATIONS_RECORD_GOLDEN=1`; a recording run still fails once, so it cannot pass unnoticed.
/// A mismatch fails with a line diff.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Golden/Golden.docc")

    static func expect(
        _ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = directory.appendingPathComponent(name)
        let recording = ProcessInfo.processInfo.environment["OPERATIONS_RECORD_GOLDEN"] == "1"
        guard !recording, let data = FileManager.default.contents(atPath: url.path) else {
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
