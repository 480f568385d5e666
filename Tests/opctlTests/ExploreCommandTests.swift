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
