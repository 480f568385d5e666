import Foundation
import OperationsRunner
import Testing

/// `opctl explore`: its JSON object, its exit statuses, and bad arguments as usage errors.
struct ExploreCommandTests {
    @Test func oneFaultOfTheSignInGivesNoViolationAndTheJSONObject() throws {
        let result = InProcessOpctl().run(
            "explore", "auth", "--max-faults", "1", "--random", "5", "--seed", "3", "--json")
        #expect(result.status == 0, "\(result)")
        let object = try #require(try parseJSON(result.stdout) as? [String: Any], "\(result)")
        #expect((object["schedules"] as? Int ?? 0) > 50, "\(object)")
        #expect((object["violations"] as? [Any])?.isEmpty == true, "\(object)")
        #expect(object["seed"] as? Int == 3)
    }

    @Test func theOrderFlowBeyondAChainGivesNoViolation() throws {
        let result = InProcessOpctl().run(
            "explore", "order", "--max-faults", "1", "--random", "20", "--seed", "1", "--json")
        #expect(result.status == 0, "\(result)")
        let object = try #require(try parseJSON(result.stdout) as? [String: Any], "\(result)")
        #expect(object["scenario"] as? String == "OrderScenario")
        #expect((object["schedules"] as? Int ?? 0) > 100, "\(object)")
        #expect((object["violations"] as? [Any])?.isEmpty == true, "\(object)")
    }

    @Test func onATerminalProgressIsWrittenOverInPlaceOnStandardError() throws {
        var opctl = InProcessOpctl()
        opctl.errorIsTerminal = true
        let shown = opctl.run("explore", "sign-out", "--max-faults", "0", "--random", "3", "--seed", "2")
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stderr.hasPrefix("\rexplore sign-out: 1 of 4 schedules (25%), "), "\(shown)")
        #expect(shown.stderr.hasSuffix("\r\u{1B}[K"), "the line is taken away at the end: \(shown)")
        #expect(!shown.stderr.contains("\n"), "never a new line: \(shown)")
        #expect(shown.stdout.hasPrefix("SignOutOp: 4 schedules"), "\(shown)")

        // JSON on a terminal: standard output is the same object; not a terminal: nothing at all.
        let json = opctl.run("explore", "sign-out", "--max-faults", "0", "--random", "3", "--seed", "2", "--json")
        let object = try #require(try parseJSON(json.stdout) as? [String: Any], "\(json)")
        #expect(object["schedules"] as? Int == 4)
        let piped = InProcessOpctl().run("explore", "sign-out", "--max-faults", "0", "--random", "3", "--seed", "2")
        #expect(piped.stderr.isEmpty, "\(piped)")
        #expect(piped.stdout == shown.stdout)
    }

    @Test func byDefaultEveryScheduleOfOneFaultAndWithTheStressVariableEveryOneOfTwo() {
        let quick = InProcessOpctl().run("explore", "sign-out", "--random", "2")
        #expect(quick.stdout.hasPrefix("SignOutOp: ") && quick.stdout.contains(" up to 1 faults "), "\(quick)")
        var stress = InProcessOpctl()
        stress.environment["OPCTL_STRESS"] = "1"
        let full = stress.run("explore", "sign-out", "--random", "2")
        #expect(full.stdout.contains(" up to 2 faults "), "\(full)")
        #expect(InProcessOpctl().run("help", "explore").stdout.contains("(default 1; 2 with OPCTL_STRESS=1)"))
    }

    @Test(arguments: [
        ["explore", "auth", "--max-faults", "-1"], ["explore", "auth", "--max-faults", "two"],
        ["explore", "auth", "--seed", "x"], ["explore", "nosuch"], ["explore"],
    ])
    func badArgumentsAreUsageErrorsNamingTheArgument(arguments: [String]) {
        let result = InProcessOpctl().run(arguments)
        #expect(result.status == 2, "\(result)")
        let named = arguments.count > 2 ? arguments[2] : (arguments.count == 2 ? "nosuch" : "missing")
        #expect(result.stderr.contains(named), "\(result)")
    }
}
