import Foundation
import Testing

/// Every way a sign-in can end with something left to do, and the hint it ends with: the hint
/// asks for the inputs the rerun needs given where the run stopped, and only those; `show` and
/// `runs --json` give the same hint; and the hint, typed with those inputs filled in, signs in.
struct EveryEndingHintEndToEndTests {
    static let phone = "+79991234567"
    static let phonePrompt = "Phone number (e.g. +7 999 123-45-67): "
    static let termsPrompt = "Accept the terms of use? [y/N] "
    static let codePrompt = "Enter the 6-digit code sent to +79991234567: "

    /// Where an interactive sign-in is interrupted, what it was given, and what its rerun asks.
    struct Interruption: Sendable, CustomTestStringConvertible {
        let prompt: String
        let given: [String]
        /// Lines typed at the prompts before, each after its prompt.
        let typed: [(prompt: String, line: String)]
        let asks: [String]
        let testDescription: String
    }

    static let interruptions = [
        Interruption(
            prompt: phonePrompt, given: [], typed: [], asks: ["--phone NUMBER", "--accept-terms", "--code CODE"],
            testDescription: "at the phone prompt"),
        Interruption(
            prompt: termsPrompt, given: ["--phone", phone], typed: [], asks: ["--accept-terms", "--code CODE"],
            testDescription: "at the terms prompt"),
        Interruption(
            prompt: codePrompt, given: ["--phone", phone, "--accept-terms"], typed: [], asks: ["--code CODE"],
            testDescription: "at the code prompt"),
        Interruption(
            prompt: "Wrong code. 2 attempts left.\n" + codePrompt, given: ["--phone", phone, "--accept-terms"],
            typed: [(codePrompt, "111111")], asks: ["--code CODE"],
            testDescription: "at the code prompt after a wrong code"),
        Interruption(
            prompt: codePrompt, given: [], typed: [(phonePrompt, phone), (termsPrompt, "y")], asks: ["--code CODE"],
            testDescription: "at the code prompt after the phone and terms were typed"),
    ]

    @Test(arguments: interruptions)
    func ctrlCAtAPromptEndsWithTheRerunOfWhatIsStillToAsk(_ case: Interruption) throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = try sandbox.start(["run", "auth"] + `case`.given, terminal: terminal)
        for (prompt, line) in `case`.typed {
            try process.waitForStderr(containing: prompt)
            terminal.type(line)
        }
        try process.waitForStderr(containing: `case`.prompt)
        process.interrupt()
        let interrupted = try process.wait()
        #expect(interrupted.status == 130, "\(interrupted)")
        try expectHintSignsIn(interrupted, sandbox, asks: `case`.asks)
    }

    @Test func declinedAtTheTermsPromptEndsWithTheRerunThatAcceptsThem() throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = try sandbox.start(["run", "auth", "--phone", Self.phone], terminal: terminal)
        try process.waitForStderr(containing: Self.termsPrompt)
        terminal.type("n")
        let declined = try process.wait()
        #expect(declined.status == 3, "\(declined)")
        try expectNothingHappensWithout(declined, sandbox, asks: ["--accept-terms", "--code CODE"])
        try expectHintSignsIn(declined, sandbox, asks: ["--accept-terms", "--code CODE"])
    }

    @Test func declinedWithTheOptionEndsWithTheRerunThatAcceptsThem() throws {
        let sandbox = try Sandbox()
        let declined = try sandbox.run("run", "auth", "--phone", Self.phone, "--decline-terms")
        #expect(declined.status == 3, "\(declined)")
        try expectNothingHappensWithout(declined, sandbox, asks: ["--accept-terms", "--code CODE"])
        try expectHintSignsIn(declined, sandbox, asks: ["--accept-terms", "--code CODE"])
    }

    /// A rerun missing the phone, then the terms, then the code is refused before anything runs,
    /// each time with the hint that names what is still missing.
    @Test func aRerunMissingInputsIsRefusedUntilItHasThemAll() throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = try sandbox.start(["run", "auth"], terminal: terminal)
        try process.waitForStderr(containing: Self.phonePrompt)
        process.interrupt()
        let interrupted = try process.wait()
        let id = try #require(runID(in: interrupted.stderr), "\(interrupted)")
        let journal = try Data(contentsOf: sandbox.journal(id))
        for (given, missing) in [
            ([], ["--phone NUMBER", "--accept-terms", "--code CODE"]),
            (["--phone", Self.phone], ["--accept-terms", "--code CODE"]),
            (["--phone", Self.phone, "--accept-terms"], ["--code CODE"]),
        ] {
            let refused = try sandbox.start(["rerun", id] + given).wait()
            #expect(refused.status == 2, "\(refused)")
            #expect(
                refused.stderr.contains("run \(id) still asks for \(missing.joined(separator: ", "))"), "\(refused)")
            #expect(
                refused.stderr.contains("To resume: opctl rerun \(id) --phone NUMBER --accept-terms --code CODE"),
                "the hint names every input the run needs:\n\(refused)")
            #expect(!refused.stderr.contains("📱"), "\(refused)")
            #expect(try Data(contentsOf: sandbox.journal(id)) == journal, "nothing journaled:\n\(refused)")
        }
        try expectHintSignsIn(interrupted, sandbox, asks: ["--phone NUMBER", "--accept-terms", "--code CODE"])
    }

    /// Killed while the code step's request was on its way: the run has no end, so `show` and
    /// `runs --json` give its hint; a rerun without the code sends no SMS and journals nothing.
    @Test func killedInTheCodeStepIsResumedWithTheCodeOnly() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            "sim:?latency=3000",
        ])
        try process.waitForStderr(containing: "📱 SMS sent to")
        process.killNow()
        let killed = try process.wait()
        #expect(killed.signal == SIGKILL, "\(killed)")
        let listing = try sandbox.run("runs", "--json")
        let id = try #require(
            (try parseJSON(listing.stdout) as? [[String: Any]])?.first?["id"] as? String, "\(listing)")
        try expectNothingHappensWithout(killed, sandbox, id: id, asks: ["--code CODE"])
        try expectHintSignsIn(killed, sandbox, id: id, asks: ["--code CODE"], printed: false)
    }

    /// The terms changed while the run went on: a rerun would replay the old acceptance, so the
    /// hint is the command that signs in anew, with the code, the terms and the backend it needs.
    @Test func termsChangedEndsWithAHintThatSignsIn() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            "sim:?termsChange=code.send&latency=1")
        #expect(failed.status == 1, "\(failed)")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let command = "opctl run auth --phone NUMBER --accept-terms --code CODE --backend 'sim:?latency=1'"
        let hint = "Start a new sign-in to read and accept them: \(command)"
        #expect(failed.stderr.contains(hint), "\(failed)")
        #expect(!failed.stderr.contains("to rerun:"), "\(failed)")
        let show = try sandbox.run("show", id)
        #expect(show.stdout.contains(hint), "\(show)")
        let listed = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        #expect(listed.first?["hint"] as? String == hint, "\(listed)")
        #expect(listed.first?["rerun"] == nil, "\(listed)")

        let signedIn = try sandbox.start(filled(command)).wait()
        #expect(signedIn.status == 0, "\(command)\n\(signedIn)")
        #expect(signedIn.stdout.contains("Signed in."), "\(signedIn)")
    }

    /// Against a server, opctl cannot know before the run what it will ask: a run without the
    /// terms decision, or without the code, starts and stops at the screen nobody can answer, and
    /// ends with the rerun that gives it.
    @Test(arguments: [
        (["--phone", phone], ["--accept-terms", "--code CODE"]),
        (["--phone", phone, "--accept-terms"], ["--code CODE"]),
    ])
    func aRunAgainstAServerMissingAnInputEndsWithTheRerunThatGivesIt(given: [String], asks: [String]) throws {
        let sandbox = try Sandbox()
        let serve = try sandbox.start(["serve", "--port", "0"])
        defer { serve.interrupt() }
        let banner = try serve.waitForStdout(containing: "(Ctrl-C to stop)\n")
        let prefix = "serving the simulated sign-in backend on http://127.0.0.1:"
        let port = try #require(
            banner.split(separator: "\n").first.map { $0.dropFirst(prefix.count).prefix { $0.isNumber } }, "\(banner)")
        let stopped = try sandbox.start(["run", "auth", "--backend", "http://127.0.0.1:\(port)"] + given).wait()
        #expect(stopped.status == 2, "\(stopped)")
        try expectHintSignsIn(stopped, sandbox, asks: asks)
    }

    // MARK: - Helpers

    /// The words of `command` after `opctl`, with the phone and the code filled in.
    private func filled(_ command: String) -> [String] {
        var words: [String] = []
        for word in command.split(separator: " ").dropFirst() {
            switch word {
            case "NUMBER": words.append(Self.phone)
            case "CODE": words.append("123456")
            default: words.append(String(word).replacingOccurrences(of: "'", with: ""))
            }
        }
        return words
    }

    /// The run's hint asks for `asks` in the line it ended with (when `printed`), in `show` and in
    /// `runs --json`, and typed with the inputs filled in, it signs in.
    private func expectHintSignsIn(
        _ ended: OpctlResult, _ sandbox: Sandbox, id given: String? = nil, asks: [String], printed: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let id = try #require(given ?? runID(in: ended.stderr), "\(ended)", sourceLocation: sourceLocation)
        let command = (["opctl rerun \(id)"] + asks).joined(separator: " ")
        if printed {
            #expect(ended.stderrLines.contains("to rerun: \(command)"), "\(ended)", sourceLocation: sourceLocation)
        }
        let show = try sandbox.run("show", id)
        #expect(show.stdout.contains("To resume: \(command)\n"), "\(show)", sourceLocation: sourceLocation)
        let shown = try #require(
            try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any], sourceLocation: sourceLocation)
        #expect(shown["rerun"] as? String == command, "\(shown)", sourceLocation: sourceLocation)
        let listed = try #require(
            try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]], sourceLocation: sourceLocation)
        let run = listed.first { $0["id"] as? String == id }
        #expect(run?["rerun"] as? String == command, "\(listed)", sourceLocation: sourceLocation)
        #expect(run?["hint"] as? String == "To resume: \(command)", "\(listed)", sourceLocation: sourceLocation)

        let rerun = try sandbox.start(filled(command)).wait()
        #expect(rerun.status == 0, "\(command)\n\(rerun)", sourceLocation: sourceLocation)
        #expect(rerun.stdout.contains("Signed in."), "\(rerun)", sourceLocation: sourceLocation)
    }

    /// A rerun without the inputs is refused before anything is sent or journaled.
    private func expectNothingHappensWithout(
        _ ended: OpctlResult, _ sandbox: Sandbox, id given: String? = nil, asks: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let id = try #require(given ?? runID(in: ended.stderr), "\(ended)", sourceLocation: sourceLocation)
        let journal = try Data(contentsOf: sandbox.journal(id))
        let refused = try sandbox.run("rerun", id)
        #expect(refused.status == 2, "\(refused)", sourceLocation: sourceLocation)
        #expect(
            refused.stderr.contains("run \(id) still asks for \(asks.joined(separator: ", "))"), "\(refused)",
            sourceLocation: sourceLocation)
        #expect(!refused.stderr.contains("📱"), "no SMS:\n\(refused)", sourceLocation: sourceLocation)
        #expect(
            try Data(contentsOf: sandbox.journal(id)) == journal, "nothing journaled:\n\(refused)",
            sourceLocation: sourceLocation)
    }
}
