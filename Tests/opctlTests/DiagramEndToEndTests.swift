import AuthFlow
import AuthFlowDiagrams
import Foundation
import Operations
import OperationsDiagrams
import Testing

/// `opctl diagram` prints exactly the committed `Diagrams/` files, and draws recorded runs.
struct DiagramEndToEndTests {
    static let diagrams = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Diagrams")

    @Test(arguments: AuthDiagrams.names)
    func diagramOutputEqualsTheCommittedFiles(name: String) throws {
        let sandbox = try Sandbox()
        for format in AuthDiagrams.Format.allCases {
            let result = try sandbox.run("diagram", name, "--format", format.rawValue)
            #expect(result.status == 0, "\(result)")
            let committed = try String(
                contentsOf: Self.diagrams.appendingPathComponent("\(name).\(format.fileExtension)"), encoding: .utf8)
            #expect(
                result.stdout == committed, "opctl diagram \(name) --format \(format.rawValue) differs from Diagrams/")
        }
    }

    /// Signs in through the built opctl and returns the run's id.
    private func signedInRun(_ sandbox: Sandbox) throws -> String {
        let run = try sandbox.run(
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--json")
        #expect(run.status == 0, "\(run)")
        return try #require(
            (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["id"] as? String)
    }

    @Test func aRecordedRunIsDrawnWithoutSecrets() throws {
        let sandbox = try Sandbox()
        let id = try signedInRun(sandbox)
        let drawn = try sandbox.run("diagram", "--run", id)
        #expect(drawn.status == 0, "\(drawn)")
        for step in ["AuthScenario", "PhoneOp", "VerificationScenario", "SaveTokenOp"] {
            #expect(drawn.stdout.contains(step), "\(step) missing:\n\(drawn.stdout)")
        }
        let verification = try sandbox.run("diagram", "--run", id, "--depth", "3")
        for step in ["TermsOfUseOp", "CodeOp"] {
            #expect(verification.stdout.contains(step), "\(step) missing:\n\(verification.stdout)")
        }
        let detailed = try sandbox.run("diagram", "--run", id, "--depth", "4", "--width", "200", "--format", "plantuml")
        #expect(detailed.status == 0, "\(detailed)")
        #expect(detailed.stdout.contains("AuthAPI"))
        #expect(!detailed.stdout.contains("123456"), "the SMS code appears in clear")
        let token = try String(contentsOf: sandbox.tokenFile, encoding: .utf8)
        #expect(!token.isEmpty)
        #expect(!detailed.stdout.contains("sim1."), "a token appears in clear")
    }

    /// A finished run is whole: "cut off" belongs to a run a kill or Ctrl-C stopped, at any
    /// depth and in every format.
    @Test func aFinishedRunIsNotCutOffInAnyFormatOrDepth() throws {
        let sandbox = try Sandbox()
        let id = try signedInRun(sandbox)
        for format in ["unicode", "ascii", "plantuml", "mermaid"] {
            for depth in ["1", "2", "3", "4"] {
                let drawn = try sandbox.run("diagram", "--run", id, "--format", format, "--depth", depth)
                #expect(drawn.status == 0, "\(drawn)")
                #expect(!drawn.stdout.contains("cut off"), "\(format), depth \(depth):\n\(drawn.stdout)")
            }
        }
    }

    @Test func aRunWithItsServicesFitsTheDefaultWidthAndDrawsOneStep() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--json",
            "--backend", "sim:?fail=phone:1")
        #expect(run.status == 0, "\(run)")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["id"] as? String)

        // Off a terminal, auto is 100 columns; the services do not fit whole, so steps are split.
        let detailed = try sandbox.run("diagram", "--run", id, "--depth", "4")
        #expect(detailed.status == 0, "\(detailed)")
        let lines = detailed.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 100 }, "a line is wider than 100 columns")
        // PhoneOp retries its request inside (the screen is asked once): a note, not a step loop.
        #expect(lines.contains("step 1 of 3: PhoneOp"), "\(detailed.stdout)")
        #expect(detailed.stdout.contains("retry 2 of 3:"), "\(detailed.stdout)")
        #expect(detailed.stdout.contains("AuthAPI"))
        #expect(!detailed.stdout.contains("123456"), "the SMS code appears in clear")

        // CodeOp runs inside VerificationScenario: --step finds it there.
        let step = try sandbox.run("diagram", "--run", id, "--depth", "4", "--step", "CodeOp", "--width", "auto")
        #expect(step.status == 0, "\(step)")
        #expect(step.stdout.contains("CodeScreen") && !step.stdout.contains("PhoneScreen"), "\(step.stdout)")

        let unknown = try sandbox.run("diagram", "--run", id, "--step", "Nope", "--depth", "3")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(
            unknown.stderr.contains("its steps: PhoneOp, VerificationScenario, TermsOfUseOp, CodeOp, SaveTokenOp"),
            "\(unknown)")
    }

    @Test(arguments: [
        ["diagram"], ["diagram", "Nope"], ["diagram", "PhoneOp", "--format", "svg"],
        ["diagram", "PhoneOp", "--width", "10"],
    ])
    func badDiagramRequestsAreUsageErrors(arguments: [String]) throws {
        let result = try Sandbox().start(arguments).wait()
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("opctl diagram --help"), "\(result)")
    }
}
