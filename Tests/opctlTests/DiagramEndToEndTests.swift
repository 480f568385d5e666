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
        for format in DiagramFormat.allCases {
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
        for format in ["unicode", "ascii", "plantuml", "mermaid", "svg"] {
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
        // PhoneOp retries its request inside (the screen is asked once): a loop frame around the
        // resent request, as the engine draws its own retries.
        #expect(lines.contains("step 1 of 3: PhoneOp"), "\(detailed.stdout)")
        #expect(detailed.stdout.contains("retry 2 of 3:"), "\(detailed.stdout)")
        #expect(detailed.stdout.contains("AuthAPI"))
        #expect(!detailed.stdout.contains("123456"), "the SMS code appears in clear")

        // CodeOp runs inside VerificationScenario: --step finds it there.
        let step = try sandbox.run("diagram", "--run", id, "--depth", "4", "--step", "CodeOp", "--width", "auto")
        #expect(step.status == 0, "\(step)")
        #expect(step.stdout.contains("CodeViewModel") && !step.stdout.contains("PhoneViewModel"), "\(step.stdout)")

        let unknown = try sandbox.run("diagram", "--run", id, "--step", "Nope", "--depth", "3")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(
            unknown.stderr.contains("its steps: PhoneOp, VerificationScenario, TermsOfUseOp, CodeOp, SaveTokenOp"),
            "\(unknown)")
    }

    /// A failed run and its rerun, through the built opctl; returns the run's id.
    private func rerunRun(_ sandbox: Sandbox) throws -> String {
        let failed = try sandbox.run(
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "000000", "--json")
        #expect(failed.status == 1, "\(failed)")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(failed.stdout.utf8)) as? [String: Any])?["id"] as? String)
        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        return id
    }

    /// Issue 28, point 1: `--step` finds a step of a nested scenario at the default depth.
    @Test func aNestedStepIsFoundAtTheDefaultDepth() throws {
        let sandbox = try Sandbox()
        let id = try signedInRun(sandbox)
        let step = try sandbox.run("diagram", "--run", id, "--step", "CodeOp")
        #expect(step.status == 0, "\(step)")
        #expect(step.stdout.contains("CodeOp") && step.stdout.contains("CodeViewModel"), "\(step.stdout)")
    }

    /// Issue 28, point 2: a step launched in a run and in its rerun is one document in every
    /// format, with a divider per session.
    @Test func aStepLaunchedInTwoSessionsIsOneDocument() throws {
        let sandbox = try Sandbox()
        let id = try rerunRun(sandbox)
        let mermaid = try sandbox.run("diagram", "--run", id, "--step", "CodeOp", "--format", "mermaid")
        #expect(mermaid.status == 0, "\(mermaid)")
        #expect(mermaid.stdout.components(separatedBy: "sequenceDiagram").count == 2, "\(mermaid.stdout)")
        #expect(mermaid.stdout.contains("AuthScenario: run (session 1 of 2), launch 1 of 2 ══"), "\(mermaid.stdout)")
        #expect(mermaid.stdout.contains("AuthScenario: rerun 1 (session 2 of 2), launch 2 of 2 ══"))
        let plantuml = try sandbox.run("diagram", "--run", id, "--step", "CodeOp", "--format", "plantuml")
        #expect(plantuml.stdout.components(separatedBy: "@startuml").count == 2, "\(plantuml.stdout)")
        #expect(plantuml.stdout.contains("== AuthScenario: rerun 1 (session 2 of 2), launch 2 of 2 =="))
        for format in ["unicode", "ascii"] {
            let text = try sandbox.run("diagram", "--run", id, "--step", "CodeOp", "--format", format)
            #expect(text.status == 0, "\(text)")
            #expect(!text.stdout.contains("\nlaunch 2 of 2"), "\(text.stdout)")
            #expect(text.stdout.contains("AuthScenario: rerun 1 (session 2 of 2), launch 2 of 2"), "\(text.stdout)")
        }
    }

    /// Issue 28, point 3: the drawing of a run names its scenario and marks where each session
    /// starts.
    @Test func eachSessionIsMarkedWhereItStarts() throws {
        let sandbox = try Sandbox()
        let id = try rerunRun(sandbox)
        let plantuml = try sandbox.run("diagram", "--run", id, "--format", "plantuml")
        #expect(plantuml.status == 0, "\(plantuml)")
        let dividers = plantuml.stdout.split(separator: "\n").filter { $0.hasPrefix("==") }
        #expect(
            dividers == ["== AuthScenario: run (session 1 of 2) ==", "== AuthScenario: rerun 1 (session 2 of 2) =="],
            "\(plantuml.stdout)")
        // The rerun's divider comes before its first launch of the scenario.
        let lines = plantuml.stdout.split(separator: "\n").map(String.init)
        let rerun = try #require(lines.firstIndex(of: "== AuthScenario: rerun 1 (session 2 of 2) =="))
        #expect(lines[rerun + 1].hasPrefix("[-> AuthScenario"), "\(plantuml.stdout)")
        let text = try sandbox.run("diagram", "--run", id)
        #expect(text.stdout.contains("══ AuthScenario: rerun 1 (session 2 of 2) ══"), "\(text.stdout)")
        let single = try sandbox.run("diagram", "--run", try signedInRun(sandbox), "--format", "mermaid")
        #expect(single.stdout.contains("══ AuthScenario: run ══"), "\(single.stdout)")
    }

    /// Issue 28, point 5: PhoneOp's own retry of its request shows at the default depth.
    @Test func aStepsOwnRetryShowsAtTheDefaultDepth() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--json",
            "--backend", "sim:?fail=phone:1")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["id"] as? String)
        let drawn = try sandbox.run("diagram", "--run", id, "--format", "plantuml")
        #expect(drawn.stdout.contains("note over PhoneOp : took 2 attempts"), "\(drawn.stdout)")
    }

    /// Issue 28, point 6: nested steps are indented under their scenario's opening line, and a
    /// conditional step that was not needed prints nothing.
    @Test func progressLinesIndentNestedStepsAndOmitSkippedOnes() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456")
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("skipped"), "\(run.stderr)")
        let lines = run.stderrLines.filter { !$0.hasPrefix("📱") }
        let opening = try #require(lines.firstIndex(of: "VerificationScenario: started"), "\(run.stderr)")
        #expect(lines[opening + 1].hasPrefix("  TermsOfUseOp: attempt 1 succeeded"), "\(run.stderr)")
        #expect(lines[opening + 2].hasPrefix("  CodeOp: attempt 1 succeeded"), "\(run.stderr)")
        #expect(lines[opening + 3].hasPrefix("VerificationScenario: attempt 1 succeeded"), "\(run.stderr)")
    }

    @Test(arguments: [
        ["diagram"], ["diagram", "Nope"], ["diagram", "PhoneOp", "--format", "png"],
        ["diagram", "PhoneOp", "--width", "10"],
    ])
    func badDiagramRequestsAreUsageErrors(arguments: [String]) throws {
        let result = try Sandbox().start(arguments).wait()
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("opctl diagram --help"), "\(result)")
    }
}
