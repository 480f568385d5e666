import Testing

/// Help and version, as printed by the binary.
struct HelpEndToEndTests {
    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func topLevelHelpListsCommandsAndExitStatuses(arguments: [String]) throws {
        let result = try Sandbox().start(arguments).wait()
        #expect(result.status == 0, "\(result)")
        for text in ["USAGE: opctl", "run", "rerun", "runs", "show", "prune", "ops", "EXIT STATUS", "130"] {
            #expect(result.stdout.contains(text), "\(text) missing:\n\(result)")
        }
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: [["help", "run"], ["run", "--help"], ["run", "-h"], ["run", "auth", "--help"]])
    func commandHelp(arguments: [String]) throws {
        let result = try Sandbox().start(arguments).wait()
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("USAGE: opctl run"), "\(result)")
        #expect(result.stdout.contains("--phone NUMBER"))
    }

    @Test func everyCommandHasHelp() throws {
        let sandbox = try Sandbox()
        for command in ["run", "rerun", "runs", "show", "prune", "ops"] {
            let result = try sandbox.run(command, "--help")
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("USAGE: opctl \(command)"), "\(result)")
        }
    }

    @Test(arguments: [
        ("runs", ["--limit N", "--status STATUS", "--scenario NAME", "--since WHEN", "newest first", "damaged"]),
        ("prune", ["--older-than WHEN", "--status STATUS", "--include-interrupted", "--dry-run", "--json", "never"]),
    ])
    func listingAndPruningHelpNameTheirOptions(command: String, texts: [String]) throws {
        let result = try Sandbox().run("help", command)
        #expect(result.status == 0, "\(result)")
        for text in texts { #expect(result.stdout.contains(text), "\(text) missing:\n\(result)") }
        for line in result.stdout.split(separator: "\n") where !line.hasPrefix("  --state-dir") {
            #expect(line.count <= 120, "a help line wider than 120 columns: \(line)")
        }
    }

    @Test func version() throws {
        let result = try Sandbox().run("--version")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("opctl "))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }
}
