import Foundation
import Testing

/// `.ci/portability-check` is what stands, on Linux, for a build on a Mac or an iPhone: it must
/// fail on a Linux-only call that no `#if` keeps from Darwin, and pass the repository as it is.
///
/// The planted calls are spelt in pieces so that this file itself is not a finding.
@Suite(.serialized)
struct PortabilityCheckTests {
    /// One planted file: its code, and whether the check must name it.
    struct Plant: Sendable, CustomStringConvertible {
        let name: String
        let code: String
        let flagged: Bool
        var description: String { name }
    }

    static let dataSync = "fdata" + "sync(descriptor)"
    static let spawn = "posix" + "_spawn(&pid, path, nil, nil, argv, envp)"
    static let home = "FileManager.default.homeDirectory" + "ForCurrentUser"

    static let plants: [Plant] = [
        Plant(name: "Unguarded", code: "let r = \(dataSync)\n", flagged: true),
        Plant(name: "LinuxBranch", code: "#if os(Linux)\n    let r = \(dataSync)\n#endif\n", flagged: false),
        Plant(
            name: "ElseOfDarwin",
            code: "#if canImport(Darwin)\n    let r = fsync(descriptor)\n#else\n    let r = \(dataSync)\n#endif\n",
            flagged: false),
        Plant(
            name: "DarwinBranch",
            code: "#if canImport(Glibc)\n    let r = 0\n#elseif canImport(Darwin)\n    let r = \(dataSync)\n#endif\n",
            flagged: true),
        Plant(name: "NegatedLinux", code: "#if !os(Linux)\n    let r = \(dataSync)\n#endif\n", flagged: true),
        Plant(name: "CommentOnly", code: "// \(dataSync) is Linux's cheaper sync\nlet r = 0\n", flagged: false),
        Plant(name: "GlibcImport", code: "import Gl" + "ibc\n", flagged: true),
        Plant(name: "SpawnOnAnyDarwin", code: "#if canImport(Darwin)\n    \(spawn)\n#endif\n", flagged: true),
        Plant(
            name: "SpawnWithoutTVAndWatch",
            code: "#if !(os(tvOS) || os(watchOS))\n    \(spawn)\n#endif\n", flagged: false),
        Plant(name: "HomeOnIOS", code: "let home = \(home)\n", flagged: true),
        Plant(name: "HomeOnMacOS", code: "#if os(macOS)\n    let home = \(home)\n#endif\n", flagged: false),
        Plant(name: "ELFSection", code: "@used @section(\".init" + "_array\") let hook = f\n", flagged: true),
        Plant(
            name: "NestedLinux", code: "#if os(Linux)\n#if DEBUG\n    let r = \(dataSync)\n#endif\n#endif\n",
            flagged: false),
        Plant(name: "AfterEndif", code: "#if os(Linux)\n#endif\nlet r = \(dataSync)\n", flagged: true),
    ]

    /// Each planted file is named exactly when its call sits outside a branch only its platforms
    /// take; the check's status says whether anything was found.
    @Test func namesEveryUnguardedCallAndNothingElse() throws {
        let tree = FileManager.default.temporaryDirectory.appendingPathComponent("portability-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tree) }
        let sources = tree.appendingPathComponent("Sources/Planted")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for plant in Self.plants {
            try plant.code.write(
                to: sources.appendingPathComponent("\(plant.name).swift"), atomically: true, encoding: .utf8)
        }
        let result = try Self.check(tree)
        #expect(result.status == 1, "\(result.output)")
        for plant in Self.plants {
            let named = result.output.contains("Sources/Planted/\(plant.name).swift:")
            #expect(named == plant.flagged, "\(plant): \(result.output)")
        }
    }

    /// The repository itself passes: every Linux-only call in it is behind its `#if`.
    @Test func theRepositoryPasses() throws {
        let result = try Self.check(Self.repository)
        #expect(result.status == 0, "\(result.output)")
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the check on `root`; its exit status and everything it printed.
    static func check(_ root: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = repository.appendingPathComponent(".ci/portability-check")
        process.arguments = [root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
