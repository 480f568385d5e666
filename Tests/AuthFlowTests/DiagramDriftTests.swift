import AuthFlow
import AuthFlowDiagrams
import Foundation
import Operations
import OperationsDiagrams
import StatefulAuthFlow
import Testing

/// The committed `Diagrams/` must be what the code draws today: opctl's diagrams and the stateful
/// variants' (Examples/StatefulAuthFlow), which no product draws.
struct DiagramDriftTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Diagrams")
    static let refresh =
        "swift run opctl diagram --all --output Diagrams, and RECORD_DIAGRAMS=1 swift test --filter DiagramDriftTests"
    static let names = AuthDiagrams.names + StatefulDiagrams.names

    static func trace(of name: String) throws -> Trace {
        StatefulDiagrams.names.contains(name) ? try StatefulDiagrams.trace(of: name) : try AuthDiagrams.trace(of: name)
    }

    @Test(arguments: names)
    func committedDiagramsMatchTheTracedRuns(name: String) throws {
        let trace = try Self.trace(of: name)
        for format in DiagramFormat.allCases {
            let file = Self.directory.appendingPathComponent("\(name).\(format.fileExtension)")
            let committed = try? String(contentsOf: file, encoding: .utf8)
            let drawn = try AuthDiagrams.render(trace, format: format)
            // opctl writes its own; the stateful variants' are recorded here, no product draws them.
            if StatefulDiagrams.names.contains(name), ProcessInfo.processInfo.environment["RECORD_DIAGRAMS"] != nil {
                try drawn.write(to: file, atomically: true, encoding: .utf8)
                continue
            }
            #expect(
                committed == drawn,
                "Diagrams/\(file.lastPathComponent) differs from what the code draws; refresh with: \(Self.refresh)")
        }
    }

    @Test func tracedRunsAreDeterministic() throws {
        #expect(
            try AuthDiagrams.render("AuthScenario", format: .unicode)
                == AuthDiagrams.render("AuthScenario", format: .unicode))
    }

    @Test func noDiagramCarriesASecretInClear() throws {
        for name in Self.names {
            for format in [DiagramFormat.plantuml, .svg] {
                let text = try AuthDiagrams.render(Self.trace(of: name), format: format)
                #expect(!text.contains("123456"), "\(name) shows the SMS code")
                #expect(!text.contains("sim1."), "\(name) shows a token in clear")
            }
        }
    }
}
