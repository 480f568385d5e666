import AuthFlow
import AuthFlowDiagrams
import Foundation
import Operations
import OperationsDiagrams
import Testing

/// The committed `Diagrams/` must be what the code draws today.
struct DiagramDriftTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Diagrams")
    static let refresh = "swift run opctl diagram --all --output Diagrams"

    @Test(arguments: AuthDiagrams.names)
    func committedDiagramsMatchTheTracedRuns(name: String) throws {
        let trace = try AuthDiagrams.trace(of: name)
        for format in AuthDiagrams.Format.allCases {
            let file = Self.directory.appendingPathComponent("\(name).\(format.fileExtension)")
            let committed = try? String(contentsOf: file, encoding: .utf8)
            let drawn = try AuthDiagrams.render(trace, format: format)
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
        for name in AuthDiagrams.names {
            let text = try AuthDiagrams.render(name, format: .plantuml)
            #expect(!text.contains("123456"), "\(name) shows the SMS code")
            #expect(!text.contains("sim1."), "\(name) shows a token in clear")
        }
    }
}
