import Foundation
import Testing

/// Issue 36 §1: every view of a run reads one history (`RunHistory`), so what one says of a
/// step — running, replayed, its attempts — the others say too.
struct RunHistoryViewsTests {
    static let phone = "+79991234567"
    static let codePrompt = "Enter the 6-digit code sent to +79991234567: "

    /// PhoneOp retries its request inside its launch (the number is typed once): the run's
    /// history holds each attempt, so the progress, `show`, `show --json` and the diagram all
    /// say three attempts, the first two failed and retried.
    @Test func phoneOpsInnerRetriesAreThreeAttemptsInEveryView() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--backend", "sim:?fail=phone:2", "--phone", Self.phone, "--accept-terms", "--code",
            "123456")
        #expect(run.status == 0, "\(run)")
        let id = try #require(runID(in: run.stderr), "\(run)")
        let progress = run.stderrLines.filter { $0.hasPrefix("PhoneOp: ") }
        #expect(progress.count == 3, "\(run)")
        #expect(progress.first?.hasPrefix("PhoneOp: attempt 1 failed") == true, "\(run)")
        #expect(progress.first?.contains("— retrying in") == true, "\(run)")
        #expect(progress.last?.hasPrefix("PhoneOp: attempt 3 succeeded") == true, "\(run)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("  attempt 1: failed: "), "\(shown)")
        #expect(shown.contains("  attempt 2: failed: "), "\(shown)")
        #expect(shown.contains("  attempt 3: succeeded"), "\(shown)")
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let phone = try #require(steps.first { $0["step"] as? String == "PhoneOp" })
        let attempts = try #require(phone["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["label"] as? String } == ["attempt 1", "attempt 2", "attempt 3"], "\(phone)")
        #expect(attempts.map { $0["outcome"] as? String }.last == "succeeded", "\(phone)")

        let drawn = try sandbox.run("diagram", "--run", id, "--format", "plantuml")
        #expect(drawn.status == 0, "\(drawn)")
        #expect(drawn.stdout.contains("took 3 attempts"), "\(drawn.stdout)")
    }

    /// PhoneOp fails for good after its inner retries: the run's last lines, `show`, `--json`
    /// and the diagram all say three attempts, and the diagram draws the retries as the loop
    /// frames the engine's own retries get, not as notes.
    @Test func phoneOpFailingAfterItsInnerRetriesSaysThreeAttemptsInEveryView() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--backend", "sim:?fail=phone:5", "--phone", Self.phone, "--accept-terms", "--code",
            "123456")
        #expect(run.status == 1, "\(run)")
        let id = try #require(runID(in: run.stderr), "\(run)")
        #expect(run.stderr.contains("opctl: PhoneOp failed after 3 attempts: "), "\(run)")
        #expect(run.stderrLines.filter { $0.hasPrefix("PhoneOp: attempt ") }.count == 3, "\(run)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("Error: PhoneOp failed after 3 attempts: "), "\(shown)")
        #expect(shown.contains("  attempt 3: failed: "), "\(shown)")
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        #expect((object["error"] as? String)?.hasPrefix("PhoneOp failed after 3 attempts: ") == true, "\(object)")
        let steps = try #require(object["steps"] as? [[String: Any]])
        let phone = try #require(steps.first { $0["step"] as? String == "PhoneOp" })
        #expect((phone["attempts"] as? [[String: Any]])?.count == 3, "\(phone)")

        let mermaid = try sandbox.run("diagram", "--run", id, "--format", "mermaid", "--depth", "3")
        #expect(mermaid.status == 0, "\(mermaid)")
        for retry in ["retry 2 of 3", "retry 3 of 3"] {
            #expect(mermaid.stdout.contains("loop \(retry): "), "\(retry):\n\(mermaid.stdout)")
            #expect(!mermaid.stdout.contains(": \(retry)"), "a note:\n\(mermaid.stdout)")
        }
    }

    /// A step nested in a scenario (TermsOfUseOp in VerificationScenario) fails for good after
    /// the engine's retries: the run's last line counts its attempts, not its scenario's.
    @Test func aNestedStepFailingAfterRetriesSaysItsAttempts() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--backend", "sim:?fail=terms:5", "--phone", Self.phone, "--accept-terms", "--code",
            "123456")
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("opctl: TermsOfUseOp failed after 3 attempts: "), "\(run)")
        let id = try #require(runID(in: run.stderr), "\(run)")
        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("Error: VerificationScenario › TermsOfUseOp failed after 3 attempts: "), "\(shown)")
    }

    /// Terms changed as SaveTokenOp launched: the reaction at the end accepts them again and
    /// saves a refreshed token. The token the run prints is the one the token file holds, and
    /// the progress, `show`, `show --json` and the diagram all tell the event, the second
    /// acceptance and the token saved.
    @Test func theTokenPrintedIsTheTokenSavedAfterAnEventsReactionAndEveryViewSaysSo() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "app", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--event",
            "terms-changed@SaveTokenOp")
        #expect(run.status == 0, "\(run)")
        let saved = try #require(
            try parseJSON(String(contentsOf: sandbox.tokenFile, encoding: .utf8)) as? [String: Any])
        let token = try #require(saved["token"] as? String)
        let redacted = "\(token.prefix(3))…\(token.suffix(4))"
        let printed = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("Auth token ") }, "\(run)")
        #expect(printed.hasPrefix("Auth token \(redacted) saved"), "\(printed)")
        let id = try #require(runID(in: run.stderr), "\(run)")

        let reaction = [
            "event terms-changed at the end: went on, launching TermsOfUseOp",
            "  TermsOfUseOp: succeeded: acceptedNewTerms(\(redacted))",
            "    TermsOfUseOp: succeeded: v2",
            "    SaveTokenOp: succeeded: \(redacted)",
        ]
        for line in reaction {
            #expect(run.stderrLines.contains(line), "progress: \(line)\n\(run.stderr)")
        }
        let shown = try sandbox.run("show", id).stdout
        for line in reaction {
            #expect(shown.contains("\n  \(line)\n"), "show: \(line)\n\(shown)")
        }
        let followed = try sandbox.run("show", id, "--follow").stdout
        for line in reaction {
            #expect(followed.contains("\n  \(line)\n"), "show --follow: \(line)\n\(followed)")
        }
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        let events = try #require(object["events"] as? [[String: Any]], "\(object)")
        let handled = try #require(events.last)
        #expect(handled["event"] as? String == "terms-changed", "\(handled)")
        #expect(handled["boundary"] as? String == "at the end", "\(handled)")
        let launched = try #require(handled["launched"] as? [[String: Any]])
        let save = try #require(launched.first { $0["step"] as? String == "TermsOfUseOp/SaveTokenOp" }, "\(launched)")
        #expect(save["output"] as? String == redacted, "\(save)")
        #expect(
            launched.contains {
                $0["step"] as? String == "TermsOfUseOp/TermsOfUseOp" && $0["outcome"] as? String == "succeeded"
            })

        // Depth 1 draws the run as one launch; from depth 2 on, its steps and the event's note.
        for depth in 1...6 {
            let drawn = try sandbox.run("diagram", "--run", id, "--format", "plantuml", "--depth", "\(depth)")
            #expect(drawn.status == 0, "depth \(depth): \(drawn)")
            guard depth > 1 else { continue }
            #expect(drawn.stdout.contains("event terms-changed at the end"), "depth \(depth):\n\(drawn.stdout)")
        }
    }

    /// A rerun's session replays PhoneOp and TermsOfUseOp: `show` says which session replayed
    /// them and that they were not sent again, `--json` names the session, and the diagram of
    /// that session notes them, as the Tour promises.
    @Test func replayedStepsAreShownAndDrawnInTheSessionThatReplayedThem() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "000000")
        #expect(failed.status == 1, "\(failed)")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("PhoneOp: replayed from the journal in session 2, not sent again"), "\(shown)")
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let phone = try #require(steps.first { $0["step"] as? String == "PhoneOp" })
        #expect(phone["replayedInSessions"] as? [Int] == [2], "\(phone)")

        for format in ["plantuml", "mermaid"] {
            let drawn = try sandbox.run("diagram", "--run", id, "--format", format)
            #expect(drawn.status == 0, "\(drawn)")
            let sessions = drawn.stdout.components(separatedBy: "rerun 1 (session 2 of 2)")
            #expect(sessions.count == 2, "\(drawn.stdout)")
            #expect(!sessions[0].contains("not sent again"), "the first session replayed nothing:\n\(drawn.stdout)")
            #expect(
                sessions.last?.contains("replayed from the journal, not sent again: PhoneOp") == true,
                "\(drawn.stdout)")
        }
    }

    /// A run parked at the code prompt is running in `runs`, `show`, `show --json` and the
    /// diagram — at its current step, never failed, in doubt or cut off — and `show --follow`
    /// follows it to its end once the test types the code.
    @Test func aLiveRunIsRunningInEveryViewAndIsFollowedToItsEnd() throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = try sandbox.start(["run", "auth", "--phone", Self.phone, "--accept-terms"], terminal: terminal)
        try process.waitForStderr(containing: Self.codePrompt)

        let listing = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        let id = try #require(listing.first?["id"] as? String)
        #expect(listing.first?["status"] as? String == "running", "\(listing)")
        #expect(listing.first?["currentStep"] as? String == "CodeOp", "\(listing)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("· running"), "\(shown)")
        #expect(shown.contains("Running: at VerificationScenario/CodeOp for "), "\(shown)")
        #expect(shown.contains("CodeOp: running (for "), "\(shown)")
        for wrong in ["in doubt", "interrupted", "failed", "To resume"] {
            #expect(!shown.contains(wrong), "\(wrong):\n\(shown)")
        }
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        #expect(object["status"] as? String == "running", "\(object)")
        #expect(object["currentStep"] as? String == "CodeOp", "\(object)")
        #expect(object["failedStep"] is NSNull, "\(object)")
        #expect(object["currentStepMilliseconds"] is Int, "\(object)")

        for format in ["plantuml", "mermaid", "unicode"] {
            let drawn = try sandbox.run("diagram", "--run", id, "--format", format, "--width", "400")
            #expect(drawn.status == 0, "\(drawn)")
            #expect(!drawn.stdout.contains("cut off"), "\(format):\n\(drawn.stdout)")
            // The text diagram may wrap the note; its start is on one line.
            let note = format == "unicode" ? "running: at" : "running: at VerificationScenario/CodeOp"
            #expect(drawn.stdout.contains(note), "\(format):\n\(drawn.stdout)")
        }

        let follower = try sandbox.start(["show", id, "--follow"])
        try follower.waitForStdout(containing: "CodeOp: running")
        terminal.type("123456")
        let signedIn = try process.wait()
        #expect(signedIn.status == 0, "\(signedIn)")
        let followed = try follower.wait()
        #expect(followed.status == 0, "\(followed)")
        let lines = followed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Following run \(id) · auth", "\(followed)")
        #expect(lines.contains("  SaveTokenOp: succeeded"), "\(followed)")
        #expect(lines.last == "Run \(id) · auth · succeeded", "\(followed)")
        // Each line is printed once it says something new: CodeOp's running line, then its end.
        #expect(lines.filter { $0.hasSuffix("CodeOp: running") }.count == 1, "\(followed)")
        #expect(lines.filter { $0.hasSuffix("CodeOp: succeeded") }.count == 1, "\(followed)")
    }

    /// Following a finished run prints its steps and its end at once; an unknown run is the
    /// usual usage error.
    @Test func followingAFinishedRunPrintsItsEndAndAnUnknownOneIsAUsageError() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(run.status == 0, "\(run)")
        let id = try #require(runID(in: run.stderr), "\(run)")
        let followed = try sandbox.run("show", id, "--follow")
        #expect(followed.status == 0, "\(followed)")
        #expect(followed.stdout.contains("  PhoneOp: succeeded"), "\(followed)")
        #expect(followed.stdout.hasSuffix("Run \(id) · auth · succeeded\n"), "\(followed)")

        let unknown = try sandbox.run("show", "20260101-000000-000-00000000", "--follow")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stdout.isEmpty, "\(unknown)")
    }
}
