import Foundation
import HTTPTestSupport
import Testing

@testable import OperationsJournal

/// Every bad input of the issue: a clear message and a non-zero exit, never a crash, a stack trace
/// or a hang. Usage and input errors exit 2 with one line and a hint, and start no run.
struct BadInputEndToEndTests {
    static let phone = "+7 999 123-45-67"
    static let tenKilobytes = String(repeating: "call me maybe ", count: 730)

    // MARK: - Phone and code

    @Test(
        arguments: [
            "call me", "+7 999 CALL-ME-1", "123", "+123", String(repeating: "1", count: 40),
            "+" + String(repeating: "1", count: 40), "", "   ", tenKilobytes,
            "+7 " + String(repeating: "9", count: 10_000),
        ].map(Sample.init))
    func malformedPhone(_ sample: Sample) throws {
        let phone = sample.text
        let sandbox = try Sandbox()
        let result = try sandbox.run("run", "auth", "--phone", phone, "--accept-terms", "--code", "123456")
        expectUsageError(result, mentions: "--phone", command: "run")
        #expect(!result.stderr.contains(String(repeating: "call me maybe ", count: 10)), "echoed the input")
        #expect(!result.stderr.contains(String(repeating: "9", count: 100)), "echoed the input")
        try expectNoRuns(sandbox)
    }

    @Test(
        arguments: [
            "12ab56", "abcdef", "123", "1234567", "", "١٢٣٤٥٦", "12 34 56", String(repeating: "1", count: 10_000),
        ].map(Sample.init))
    func malformedCode(_ sample: Sample) throws {
        let code = sample.text
        let sandbox = try Sandbox()
        let result = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", code)
        expectUsageError(result, mentions: "code", command: "run")
        #expect(!result.stderr.contains(String(repeating: "1", count: 100)), "echoed the input")
        try expectNoRuns(sandbox)
    }

    @Test func malformedCodeOnStandardInput() throws {
        let sandbox = try Sandbox()
        for stdin in ["12ab56\n", "\n", ""] {
            let result = try sandbox.run(
                "run", "auth", "--phone", Self.phone, "--accept-terms", "--code-stdin", stdin: Data(stdin.utf8))
            expectUsageError(result, mentions: "code", command: "run")
        }
        try expectNoRuns(sandbox)
    }

    @Test func missingValuesWithoutATerminalAreUsageErrors() throws {
        let sandbox = try Sandbox()
        expectUsageError(
            try sandbox.run("run", "auth", "--accept-terms", "--code", "123456"), mentions: "--phone", command: "run")
        expectUsageError(
            try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms"), mentions: "--code", command: "run")
        expectUsageError(
            try sandbox.run("run", "auth", "--phone", Self.phone, "--code", "123456"), mentions: "--accept-terms",
            command: "run")
        expectUsageError(
            try sandbox.run("run", "app", "--accept-terms", "--code", "123456"), mentions: "--phone", command: "run")
        try expectNoRuns(sandbox)
    }

    // MARK: - Command line

    @Test(arguments: [["frob"], ["Run"], ["help", "frob"], ["--frob"], ["-x"]])
    func unknownCommand(arguments: [String]) throws {
        let result = try Sandbox().start(arguments).wait()
        expectUsageError(result, mentions: arguments.last!, command: nil)
    }

    @Test(arguments: [
        ["run", "auth", "--frob"], ["run", "auth", "-x"], ["runs", "--frob=1"], ["show", "--phone", "+79991234567"],
        ["run", "auth", "--json=yes"], ["ops", "extra"], ["run", "nothing"],
    ])
    func unknownOptionOrArgument(arguments: [String]) throws {
        let result = try Sandbox().start(arguments).wait()
        expectUsageError(result, mentions: "'", command: arguments[0])
    }

    @Test(arguments: [
        ["run", "auth", "--phone"], ["run", "auth", "--phone", "--accept-terms"], ["rerun", "--code"],
        ["runs", "--state-dir"], ["run", "auth", "--backend"],
    ])
    func optionMissingItsValue(arguments: [String]) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.start(arguments).wait()
        expectUsageError(result, mentions: "needs a value", command: arguments[0])
        try expectNoRuns(sandbox)
    }

    @Test(arguments: [
        "ftp://example.com", "sim:?latency=abc", "sim:?fail=nowhere:1", "sim:?code", "http://", "simulator",
        "http://127.0.0.1:99999",
    ])
    func malformedBackend(_ backend: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", backend)
        expectUsageError(result, mentions: "backend", command: "run")
        try expectNoRuns(sandbox)
    }

    #if !canImport(Darwin)
        // Linux: opctl links no URLSession there (FoundationNetworking would load libcurl at
        // every start), so an https:// backend is a usage error before anything is sent or made.
        @Test func httpsBackendOnLinuxSaysOpctlSpeaksPlainHTTP() throws {
            let sandbox = try Sandbox()
            let result = try sandbox.run(
                "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
                "https://auth.example.com")
            expectUsageError(result, mentions: "speaks plain http:// only", command: "run")
            try expectNoRuns(sandbox)
        }

        @Test func opctlOnLinuxLoadsNoFoundationNetworking() throws {
            // glibc's loader lists what a program loads, without running it, when asked (as ldd does).
            let listed = try Sandbox().run("--version", environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
            #expect(listed.stdout.contains("libFoundation"), "\(listed)")
            #expect(!listed.stdout.contains("libFoundationNetworking"), "\(listed)")
            #expect(!listed.stdout.contains("libcurl"), "\(listed)")
        }
    #endif

    // MARK: - Runs and journals

    @Test(
        arguments: [
            "20250101-120000-000-1a2b3c4d", "nope", "../../etc/passwd", "", String(repeating: "x", count: 10_000),
        ].map(Sample.init))
    func unknownRunID(_ sample: Sample) throws {
        let id = sample.text
        let sandbox = try Sandbox()
        for command in ["show", "rerun"] {
            let result = try sandbox.run(command, id)
            expectUsageError(result, mentions: "no run", command: nil)
            #expect(!result.stderr.contains(String(repeating: "x", count: 100)), "echoed the input")
        }
    }

    @Test func journalTruncatedMidLineResumesFromWhatIsIntact() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "000000")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        // Cut the journal in the middle of the line of CodeOp's launch, as a killed process leaves it.
        let journal = sandbox.journal(id)
        let text = try String(contentsOf: journal, encoding: .utf8)
        let codeLaunch = try #require(text.range(of: #"{"event":"stepLaunched""#, options: .backwards))
        let cut = text.index(codeLaunch.lowerBound, offsetBy: 40)
        try Data(text[..<cut].utf8).write(to: journal)
        // That process never synced the torn line, so its sync mark names the line synced before
        // it: the launch of the step with side effects before CodeOp (a buffered journal syncs
        // nowhere else). A mark at the torn line would say the journal lost a synced line.
        let before = text[..<codeLaunch.lowerBound].split(separator: "\n")
        let synced = try #require(before.lastIndex { $0.contains(#""purity":"sideEffects""#) })
        let sum = try #require(LineChecksum.intactSum(Array(before[synced].utf8)[...]))
        try Data(SyncMark(line: synced + 1, sum: sum).record).write(to: SyncMark.url(for: journal))

        let listed = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listed.stdout) as? [[String: Any]], "\(listed)")
        #expect(runs.first?["status"] as? String == "interrupted", "\(listed)")
        let shown = try sandbox.run("show", id)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.contains("TermsOfUseOp: succeeded"), "\(shown)")

        // A process killed mid-write of the launch line never sent CodeOp's request (the launch is
        // synced first), so the backend never heard of it: it forgets the one this run did send
        // (the simulator keeps its state in the state directory), or the relaunch under a new key
        // would be refused as too soon after that SMS and wait the 30 s the backend asks for.
        try FileManager.default.removeItem(at: sandbox.stateDirectory.appendingPathComponent("simulator"))
        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        #expect(rerun.stderr.contains("TermsOfUseOp: replayed"), "\(rerun)")
    }

    @Test func journalOfRandomBytesGivesAClearError() throws {
        let sandbox = try Sandbox()
        let id = "20250101-120000-000-1a2b3c4d"
        try FileManager.default.createDirectory(at: sandbox.runsDirectory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: sandbox.journal(id))

        for arguments in [["show", id], ["rerun", id, "--code", "123456"]] {
            let result = try sandbox.start(arguments).wait()
            expectCleanFailure(result)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("not a scenario journal"), "\(result)")
            #expect(result.stderr.contains(id))
            #expect(result.stderr.utf8.count < 400, "\(result)")
        }
        let listed = try sandbox.run("runs")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("damaged"), "\(listed)")
        let json = try sandbox.run("runs", "--json")
        #expect(json.status == 0, "\(json)")
        let runs = try #require(try parseJSON(json.stdout) as? [[String: Any]], "\(json)")
        #expect(json.stderr.contains(id), "the damaged run is named beside the array:\n\(json)")
        for run in runs {
            #expect(requiredRunKeys.isSubset(of: run.keys), "\(run)")
            #expect(runStatuses.contains(run["status"] as? String ?? ""), "\(run)")
        }
    }

    @Test func journalDamagedInTheMiddleResumesFromWhatIsIntactWhereThatIsSafe() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "000000")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        var lines = try String(contentsOf: sandbox.journal(id), encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = "\u{00}\u{FF}garbage"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: sandbox.journal(id))

        // The run goes on from the intact lines; CodeOp makes the backend act, and the lost line
        // might have recorded an attempt of it, so the rerun stops before it until told.
        let result = try sandbox.run("rerun", id, "--code", "123456")
        expectCleanFailure(result)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("skipping damaged line 3"), "\(result)")
        #expect(result.stderr.contains("journal is damaged at line"), "\(result)")
        #expect(result.stderr.contains("--relaunch-in-doubt"), "\(result)")

        let told = try sandbox.run("rerun", id, "--code", "123456", "--relaunch-in-doubt")
        #expect(told.status == 0, "\(told)")
        #expect(told.stdout.contains("Signed in."), "\(told)")
        // The resumes named the damaged line in the journal: it reads again, and lists.
        let shown = try sandbox.run("show", id)
        #expect(shown.status == 0, "\(shown)")
    }

    // MARK: - Environment

    @Test func stateDirectoryThatCannotBeWritten() throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appendingPathComponent("a-file")
        try Data("not a directory".utf8).write(to: file)
        let impossible = file.appendingPathComponent("state").path

        let viaOption = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--state-dir", impossible)
        let viaEnvironment = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456",
            environment: ["OPCTL_STATE_DIR": impossible])
        for result in [viaOption, viaEnvironment] {
            expectCleanFailure(result)
            #expect(result.stderr.contains(impossible), "\(result)")
            #expect(result.stderr.contains("not a directory"), "\(result)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result)")
            #expect(result.stderr.split(separator: "\n").count <= 2, "\(result)")
        }
        let listed = try sandbox.run("runs", "--state-dir", impossible)
        #expect(listed.signal == nil, "\(listed)")
    }

    @Test func backendWhereNothingListensFailsInBoundedTimeAfterRetries() throws {
        let sandbox = try Sandbox()
        let port = try closedLoopbackPort()
        let started = ContinuousClock.now
        let result = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456",
            "--backend", "http://127.0.0.1:\(port)")
        #expect(ContinuousClock.now - started < .seconds(45), "took \(ContinuousClock.now - started)")
        expectCleanFailure(result)
        #expect(result.status == 1, "\(result)")
        // PhoneOp retries the request inside its one launch; each retry is an attempt, and the
        // failure counts them all.
        #expect(result.stderr.contains("PhoneOp failed after 3 attempts: The server cannot be reached"), "\(result)")
        let id = try #require(runID(in: result.stderr), "\(result)")
        #expect(result.stderr.contains("opctl rerun \(id)"), "\(result)")
    }

    // MARK: - Helpers

    private func expectUsageError(
        _ result: OpctlResult, mentions text: String, command: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectCleanFailure(result, sourceLocation: sourceLocation)
        #expect(result.status == 2, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let lines = result.stderrLines
        #expect(lines.count == 2, "one line and a hint:\n\(result)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("opctl: ") == true, "\(result)", sourceLocation: sourceLocation)
        #expect(
            lines.first?.contains(text) == true, "should mention \(text):\n\(result)", sourceLocation: sourceLocation)
        #expect(lines.last?.hasPrefix("See 'opctl ") == true, "\(result)", sourceLocation: sourceLocation)
        if let command {
            #expect(lines.last == "See 'opctl \(command) --help'.", "\(result)", sourceLocation: sourceLocation)
        }
        #expect(result.stderr.utf8.count < 400, "\(result.stderr.utf8.count) bytes", sourceLocation: sourceLocation)
    }

    private func expectCleanFailure(_ result: OpctlResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status != 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.signal == nil, "crashed:\n\(result)", sourceLocation: sourceLocation)
        for sign in ["Fatal error", "Stack dump", "Backtrace", "Segmentation", "💣"] {
            #expect(!result.stderr.contains(sign), "\(result)", sourceLocation: sourceLocation)
        }
    }

    private func expectNoRuns(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path)) ?? []
        #expect(names.isEmpty, "a run was started: \(names)", sourceLocation: sourceLocation)
    }
}
