import Foundation
import OperationsRunner
import Testing

/// The hand-written argument parser, directly and through ``RunnerMain/main(_:console:)`` with a
/// fake console: no process, no terminal.
struct ArgumentParsingTests {
    static let spec = ArgumentSpec([phone, code, json, CommandOption("--accept-terms", "")], maxPositionals: 1)

    // The options read back, as a command declares them.
    static let phone = CommandOption("--phone", value: "NUMBER", "")
    static let code = CommandOption("--code", value: "CODE", "")
    static let json = CommandOption("--json", "")
    static let help = CommandOption("--help", "")

    private func parse(_ arguments: String...) throws -> ParsedArguments {
        try ParsedArguments(arguments, spec: Self.spec, command: "run")
    }

    @Test func aCountIsAWholeNumberOfZeroOrMoreOrItsDefault() throws {
        #expect(try parse("--code", "7").count(Self.code, command: "run") == 7)
        #expect(try parse("--code", "0").count(Self.code, default: 3, command: "run") == 0)
        #expect(try parse().count(Self.code, default: 3, command: "run") == 3, "absent: the default")
        for bad in ["-1", "two", "1.5", "", String(repeating: "9", count: 80)] {
            #expect(throws: UsageError.self) { try parse("--code=\(bad)").count(Self.code, command: "run") }
        }
        let long = String(repeating: "x", count: 10_000)
        do {
            _ = try parse("--code", long).count(Self.code, command: "run")
            Issue.record("a count of letters was accepted")
        } catch let error as UsageError {
            #expect("\(error)".count < 200, "the text is clipped: \(error)")
        }
    }

    @Test func aNonEmptyValueRefusesAnEmptyOrBlankOne() throws {
        #expect(try parse("--code", "tok_visa").nonEmptyValue(Self.code, command: "run") == "tok_visa")
        #expect(try parse().nonEmptyValue(Self.code, command: "run") == nil, "absent: nil, the caller's default")
        for blank in ["", " ", "\t"] {
            #expect(throws: UsageError.self) { try parse("--code=\(blank)").nonEmptyValue(Self.code, command: "run") }
            #expect(throws: UsageError.self) { try parse("--code", blank).nonEmptyValue(Self.code, command: "run") }
        }
    }

    @Test func optionValuesSeparateOrInline() throws {
        let separate = try parse("auth", "--phone", "+79991234567", "--code", "123456")
        #expect(separate.value(Self.phone) == "+79991234567")
        #expect(separate.value(Self.code) == "123456")
        #expect(separate.positionals == ["auth"])

        let inline = try parse("--phone=+7 999 123-45-67", "auth", "--code=12=34")
        #expect(inline.value(Self.phone) == "+7 999 123-45-67")
        #expect(inline.value(Self.code) == "12=34", "only the first = splits")
        #expect(inline.positionals == ["auth"])

        #expect(try parse("--phone=").value(Self.phone) == "", "an inline empty value is a value")
        #expect(try parse("--phone", "-1").value(Self.phone) == "-1", "a value may start with one dash")
    }

    @Test func doubleDashEndsTheOptions() throws {
        let parsed = try parse("--json", "--", "--phone")
        #expect(parsed.has(Self.json))
        #expect(parsed.positionals == ["--phone"])
        #expect(parsed.value(Self.phone) == nil)
        #expect(try parse("--", "-").positionals == ["-"])
        #expect(try parse("-").positionals == ["-"], "a lone dash is an argument")
    }

    @Test func shortAndLongHelp() throws {
        #expect(try parse("-h").has(Self.help))
        #expect(try parse("auth", "--help").has(Self.help))
        #expect(try parse("--", "-h").positionals == ["-h"])
    }

    @Test func flagsAreSets() throws {
        let parsed = try parse("--json", "--json", "--accept-terms")
        #expect(parsed.has(Self.json) && parsed.has(CommandOption("--accept-terms", "")))
        #expect(try parse("--phone", "1", "--phone", "2").value(Self.phone) == "2", "the last one wins")
    }

    @Test(arguments: [
        (["--frob"], "unknown option '--frob'"),
        (["-x"], "unknown option '-x'"),
        (["--json=1"], "option '--json' takes no value"),
        (["--phone"], "option '--phone' needs a value"),
        (["--phone", "--json"], "option '--phone' needs a value"),
        (["a", "b"], "unexpected argument 'b'"),
    ])
    func rejected(arguments: [String], message: String) {
        let error = usageError(arguments)
        #expect(error?.message == message)
        #expect(error?.hint(program: "chores") == "See 'chores run --help'.")
    }

    private func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try ParsedArguments(arguments, spec: Self.spec, command: "run")
            Issue.record("\(arguments) was accepted")
            return nil
        } catch {
            return error as? UsageError
        }
    }

    @Test func aLongUnknownOptionIsClipped() {
        let error = usageError(["--" + String(repeating: "x", count: 10_000)])
        #expect(error?.message == "unknown option '--" + String(repeating: "x", count: 38) + "…'")
    }

    // MARK: - Through RunnerMain.main

    @Test func helpAndVersionInProcess() {
        let chores = InProcessRunner<Chores>()
        let help = chores.run("-h")
        #expect(help.status == 0)
        #expect(help.stdout == RunnerMain<Chores>.help)
        #expect(chores.run("help", "show").stdout == ShowRun<Chores>.help + "\n")
        #expect(chores.run("show", "-h").stdout == ShowRun<Chores>.help + "\n")
        #expect(chores.run("show", "--", "-h").status == 2, "after --, -h is a run id")
        #expect(chores.run("--version").stdout == "chores 1.2\n")
    }

    @Test func usageErrorsAreOneLineAndAHintInProcess() {
        let chores = InProcessRunner<Chores>()
        for arguments in [["frob"], ["run"], ["run", "tidy", "--fail=yes"], ["run", "tidy", "--state-dir"], ["show"]] {
            let result = chores.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 2, "\(arguments): \(result.stderr)")
            #expect(lines.last?.hasPrefix("See 'chores") == true)
        }
        #expect(
            chores.run("run", "tidy", "--fail=yes").stderr.contains("'--fail' takes no value"),
            "the inline value was parsed")
    }

    @Test func stateDirectoryComesFromOptionThenEnvironment() throws {
        let environment = ["CHORES_STATE_DIR": "/from/env", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"]
        func resolve(_ option: String?, _ environment: [String: String]) -> String {
            StateDirectory.resolve(option: option, environment: environment, program: "chores").path
        }
        #expect(resolve("/opt", environment) == "/opt")
        #expect(resolve(nil, environment) == "/from/env")
        #expect(resolve(nil, ["XDG_STATE_HOME": "/xdg"]) == "/xdg/chores")
        #expect(resolve(nil, ["HOME": "/home/u"]) == "/home/u/.local/state/chores")
    }

    @Test func runsAndShowInProcess() throws {
        let directory = temporaryStateDirectory("runner-inproc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        let empty = chores.run("runs")
        #expect(empty.status == 0)
        #expect(empty.stderr.contains("No runs yet"))
        #expect(chores.run("runs", "--json").stdout == "[]\n")
        let unknown = chores.run("show", "20250101-120000-000-1a2b3c4d", "--state-dir=\(directory.path)")
        #expect(unknown.status == 2, "\(unknown)")
    }
}
