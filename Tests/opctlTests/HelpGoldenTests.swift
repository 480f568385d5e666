import Foundation
import OperationsRunner
import Testing

/// Every help text opctl prints, byte for byte, against `Tests/HelpTexts/opctl/`: the runner
/// generates parts of them (usage lines, common options, exit statuses), so a change there shows
/// up here as a diff to make on purpose. `RECORD_HELP=1 swift test --filter HelpGoldenTests`
/// rewrites the files (and still fails once, so a recording is never mistaken for a pass).
struct HelpGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HelpTexts").appendingPathComponent("opctl")

    static let commands = [
        "run", "rerun", "runs", "show", "prune", "check", "explore", "diagram", "ui", "ops", "serve",
    ]

    @Test func topLevelHelp() throws {
        try expectGolden(InProcessOpctl().run("--help").stdout, file: "opctl")
    }

    @Test(arguments: commands)
    func commandHelp(command: String) throws {
        try expectGolden(InProcessOpctl().run("help", command).stdout, file: command)
    }

    private func expectGolden(_ text: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = Self.directory.appendingPathComponent("\(file).txt")
        let committed = try? String(contentsOf: url, encoding: .utf8)
        if committed == nil || ProcessInfo.processInfo.environment["RECORD_HELP"] != nil {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            Issue.record("recorded \(url.lastPathComponent); run again to compare", sourceLocation: sourceLocation)
            return
        }
        #expect(committed == text, "\(file): \(Self.lineDiff(committed ?? "", text))", sourceLocation: sourceLocation)
    }

    /// The lines that differ, `-` committed and `+` printed, for a readable failure.
    static func lineDiff(_ old: String, _ new: String) -> String {
        let before = old.split(separator: "\n", omittingEmptySubsequences: false)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(before.count, after.count) {
            let left = index < before.count ? String(before[index]) : nil
            let right = index < after.count ? String(after[index]) : nil
            guard left != right else { continue }
            if let left { lines.append("line \(index + 1) -\(left)") }
            if let right { lines.append("line \(index + 1) +\(right)") }
        }
        return "\n" + lines.joined(separator: "\n")
    }
}
