import Foundation
import Operations
import OperationsDiagrams
import Testing

/// The checkout's committed diagrams, `Diagrams/Checkout/NAME.*` in the repository: each must be
/// byte for byte what the code draws today, in every format.
enum CommittedDiagram {
    /// `Diagrams/Checkout` at the root of the repository.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Diagrams/Checkout")
    /// Set to write the files instead of comparing them.
    static let refresh = "CHECKOUT_REFRESH_DIAGRAMS"

    /// Compares (or, with ``refresh`` set, writes) every format of `trace` with the files of
    /// `name`; a difference names the file and the command that refreshes it.
    ///
    /// - Parameters:
    ///   - trace: The traced run.
    ///   - name: The files' name without the format's extension, e.g. `CheckoutScenario.parallel`.
    ///   - suite: The suite whose filter refreshes them.
    static func check(_ trace: Trace, named name: String, suite: String) throws {
        let refreshing = ProcessInfo.processInfo.environment[refresh] != nil
        for format in DiagramFormat.allCases {
            let file = directory.appendingPathComponent("\(name).\(format.fileExtension)")
            let drawn = try format.render(trace, width: 100)
            if refreshing {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(drawn.utf8).write(to: file)
            }
            let committed = try? String(contentsOf: file, encoding: .utf8)
            let refreshCommand = "\(refresh)=1 swift test --filter \(suite) (in Examples/Checkout)"
            #expect(
                committed == drawn,
                "Diagrams/Checkout/\(file.lastPathComponent) differs from what the code draws; refresh with: \(refreshCommand)"
            )
        }
    }
}
