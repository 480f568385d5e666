import Foundation
import Operations
import OperationsDiagrams
import OperationsRunner
import OperationsTestSupport
import OperationsTesting
import Testing

/// Issue 36, point 2: every run that can be recorded draws, at every depth and step by step.
/// The causes of the traces QA could not draw, each where it was: the recording (one lifeline
/// launched inside its own launch), the reading of a cut session (stale calls, services
/// outliving their operation), the depth and section logic; and the fallback for a trace
/// damaged at rest.
struct RecordedRunDrawingTests {
    private static let formats = DiagramFormat.allCases

    /// Draws `trace` in every format at depths 1...6 and each of its steps, as
    /// `opctl diagram --run` does; returns what failed. `mended`: a drawing that does not
    /// validate is drawn from its ``Trace/drawable()`` as `opctl` does (for a trace that was
    /// damaged, whose steps cut out of it may not balance on their own either).
    private static func failures(drawing trace: Trace, mended: Bool = false) -> [String] {
        var failed: [String] = []
        func draw(_ trace: Trace, _ format: DiagramFormat, _ what: String) {
            do {
                _ = try format.render(trace, width: 100)
            } catch {
                if mended, (try? format.render(trace.drawable(), width: 100)) != nil { return }
                failed.append("\(format) \(what): \(error)")
            }
        }
        for format in formats {
            for depth in 1...6 { draw(trace.limited(toDepth: depth), format, "depth \(depth)") }
            for name in trace.stepNames {
                draw(TraceSection.joined(trace.sections(named: name)), format, "step \(name)")
            }
        }
        return failed
    }

    // MARK: - One lifeline, one launch at a time

    /// A one-step scenario named after the operation it launches (`opctl run sign-out` is
    /// `Scenario("SignOutOp")` around `SignOutOp`) recorded "SignOutOp launches SignOutOp"
    /// while it ran: a trace no renderer can draw. The inner launch gets an id of its own.
    @Test func aScenarioNamedAfterItsStepRecordsTwoLifelines() throws {
        let scenario = Scenario<Int, Int>("DoubleOp") { chain in chain.then(Step("DoubleOp") { DoubleOp() }) }
        let tracer = InMemoryTracer()
        var context = OpContext(3)
        context.trace = TraceScope.root(tracer, caller: .caller("Test"))
        #expect(try scenario.launchAndWait(context) == 6)

        let trace = tracer.trace
        try trace.validate()
        let inner = try #require(trace.participants.first { $0.id == "DoubleOp#2" })
        #expect(inner.name == "DoubleOp")
        #expect(trace.events.contains(.launch("DoubleOp#2", by: "DoubleOp", "launch(3)")))
        #expect(Self.failures(drawing: trace).isEmpty)
        // Once the first launch finished, a new one takes the plain id again.
        #expect(try scenario.launchAndWait(context) == 6)
        #expect(tracer.trace.events.filter { $0 == .launch("DoubleOp", by: "Test", "launch(3)") }.count == 2)
    }

    /// An operation launched at several depths (a check the app makes, and its reaction's
    /// scenario again) is as deep as its current launch: at depth 2 the second launch is a
    /// black box, as the first launch's depth used to make it.
    @Test func anOperationLaunchedAtTwoDepthsIsLimitedAtEach() throws {
        let trace = Trace(events: [
            .declare(.caller("App")), .declare(.operation("Main")), .declare(.operation("Check")),
            .declare(.operation("Reaction")), .declare(.keyService("API")),
            .launch("Main", by: "App", "launch"),
            .launch("Check", by: "Main", "launch"),
            .call(from: "Check", to: "API", "fetch"), .reply(from: "API", to: "Check", "first"),
            .finish("Check", to: "Main", "onFinish"),
            .launch("Reaction", by: "Main", "launch"),
            .launch("Check", by: "Reaction", "launch"),
            .call(from: "Check", to: "API", "fetch"), .reply(from: "API", to: "Check", "second"),
            .finish("Check", to: "Reaction", "onFinish"),
            .finish("Reaction", to: "Main", "onFinish"),
            .finish("Main", to: "App", "onFinish"),
        ])
        let labels = trace.limited(toDepth: 3).events.compactMap { event -> String? in
            if case .message(_, _, let label, _) = event.kind { label } else { nil }
        }
        #expect(labels == ["fetch", "first"], "the reaction's check is level 4: only its launch is drawn at 3")
        #expect(trace.limited(toDepth: 3).events.contains(.launch("Check", by: "Reaction", "launch")))
        #expect(Self.failures(drawing: trace).isEmpty)
    }

    // MARK: - A session cut at the code prompt

    /// The shape QA drew: a wrong code (the screen shown, dismissed, released), the code asked
    /// again on a new screen, then the run stopped at that prompt. `killed` leaves the launch
    /// running (a SIGKILL); otherwise the operation finished cancelled with its screen still up
    /// (Ctrl-C). A rerun session follows, asking for the code on a screen of its own.
    private static func codePromptSession(killed: Bool) -> String {
        var lines = [
            #"{"session":true,"version":1}"#,
            #"{"kind":"declare","participant":{"name":"opctl","id":"opctl","kind":"caller"}}"#,
            #"{"kind":"declare","participant":{"name":"Verification","id":"Verification","kind":"operation"}}"#,
            #"{"kind":"declare","participant":{"name":"CodeOp","id":"CodeOp","kind":"operation"}}"#,
            #"{"kind":"declare","participant":{"name":"AuthAPI","id":"AuthAPI","kind":"keyService"}}"#,
            #"{"kind":"declare","participant":{"name":"CodeScreen","id":"CodeScreen","kind":"contextService"}}"#,
            #"{"kind":"launch","by":"opctl","participant":"Verification","label":"launch(token)"}"#,
            #"{"kind":"launch","by":"Verification","participant":"CodeOp","label":"launch(token)"}"#,
            #"{"kind":"create","by":"CodeOp","participant":"CodeScreen","label":"create"}"#,
            #"{"kind":"message","from":"CodeOp","to":"CodeScreen","label":"show(CodeViewModel)","style":"call"}"#,
            #"{"kind":"message","from":"CodeScreen","to":"CodeOp","label":"submitted(••••••)","style":"async"}"#,
            #"{"kind":"message","from":"CodeOp","to":"AuthAPI","label":"verifyCode(••••••)","style":"call"}"#,
            #"{"kind":"message","from":"AuthAPI","to":"CodeOp","label":"error: wrong code","style":"reply"}"#,
            #"{"kind":"message","from":"CodeOp","to":"CodeScreen","label":"dismiss()","style":"call"}"#,
            #"{"kind":"release","participant":"CodeScreen"}"#,
            #"{"kind":"finish","to":"Verification","participant":"CodeOp","label":"onFinish(error: wrong code)"}"#,
            #"{"kind":"frame","frame":"loop","label":"wrong code, asked again","by":"Verification"}"#,
            #"{"kind":"launch","by":"Verification","participant":"CodeOp","label":"launch(token)"}"#,
            #"{"kind":"create","by":"CodeOp","participant":"CodeScreen","label":"create"}"#,
            #"{"kind":"message","from":"CodeOp","to":"CodeScreen","label":"show(CodeViewModel)","style":"call"}"#,
        ]
        if !killed {
            lines += [
                #"{"kind":"finish","to":"Verification","participant":"CodeOp","label":"onFinish(error: cancelled)"}"#,
                #"{"kind":"end"}"#,
                #"{"kind":"finish","to":"opctl","participant":"Verification","label":"onFinish(error: cancelled)"}"#,
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let rerunSession =
        [
            #"{"session":true,"version":1}"#,
            #"{"kind":"declare","participant":{"name":"opctl","id":"opctl","kind":"caller"}}"#,
            #"{"kind":"declare","participant":{"name":"Verification","id":"Verification","kind":"operation"}}"#,
            #"{"kind":"declare","participant":{"name":"CodeOp","id":"CodeOp","kind":"operation"}}"#,
            #"{"kind":"declare","participant":{"name":"CodeScreen","id":"CodeScreen","kind":"contextService"}}"#,
            #"{"kind":"launch","by":"opctl","participant":"Verification","label":"launch(token)"}"#,
            #"{"kind":"launch","by":"Verification","participant":"CodeOp","label":"launch(token)"}"#,
            #"{"kind":"create","by":"CodeOp","participant":"CodeScreen","label":"create"}"#,
            #"{"kind":"message","from":"CodeOp","to":"CodeScreen","label":"show(CodeViewModel)","style":"call"}"#,
            #"{"kind":"message","from":"CodeOp","to":"CodeScreen","label":"dismiss()","style":"call"}"#,
            #"{"kind":"release","participant":"CodeScreen"}"#,
            #"{"kind":"finish","to":"Verification","participant":"CodeOp","label":"onFinish(sim…kILc)"}"#,
            #"{"kind":"finish","to":"opctl","participant":"Verification","label":"onFinish(sim…kILc)"}"#,
        ].joined(separator: "\n") + "\n"

    @Test(arguments: [false, true], [false, true])
    func aSessionStoppedAtTheCodePromptDrawsEverywhere(killed: Bool, rerun: Bool) throws {
        let text = Self.codePromptSession(killed: killed) + (rerun ? Self.rerunSession : "")
        let recorded = try Trace.recorded(jsonLines: Data(text.utf8))
        let trace = recorded.markingSessions()
        try trace.validate()
        #expect(Self.failures(drawing: trace).isEmpty, "\(Self.failures(drawing: trace))")
        #expect(recorded.isCutOff == killed, "a cancelled launch is finished: only a kill cuts the session")
        // The first screen's unanswered show() and dismiss() were answered by its release: the
        // only reply the cut adds is the one to the second screen's show().
        let cutReplies = trace.events.filter { $0 == .reply(from: "CodeScreen", to: "CodeOp", Trace.cutOffLabel) }
        #expect(cutReplies.count == (killed ? 1 : 0))
        if killed {
            // Inside the cut launch: answered, released, then finished.
            let tail = trace.events.drop { $0 != .note(over: "CodeOp", Trace.cutOffLabel) }.prefix(4)
            #expect(
                Array(tail) == [
                    .note(over: "CodeOp", Trace.cutOffLabel),
                    .reply(from: "CodeScreen", to: "CodeOp", Trace.cutOffLabel),
                    .release("CodeScreen"),
                    .finish("CodeOp", to: "Verification", Trace.cutOffLabel),
                ])
        }
        // The step drawn alone holds each launch whole, the rerun's included.
        let launches = trace.sections(named: "CodeOp")
        #expect(launches.count == (rerun ? 3 : 2))
        try TraceSection.joined(launches).validate()
    }

    /// Killed while the number is sent, after its screen was dismissed and released: the
    /// calls to the released screen wait on nothing, and only the request in flight is cut.
    @Test func aSessionKilledAfterItsScreenWasReleasedAnswersOnlyTheRequestInFlight() throws {
        let lines = [
            #"{"session":true,"version":1}"#,
            #"{"kind":"declare","participant":{"name":"opctl","id":"opctl","kind":"caller"}}"#,
            #"{"kind":"declare","participant":{"name":"PhoneOp","id":"PhoneOp","kind":"operation"}}"#,
            #"{"kind":"declare","participant":{"name":"AuthAPI","id":"AuthAPI","kind":"keyService"}}"#,
            #"{"kind":"declare","participant":{"name":"PhoneScreen","id":"PhoneScreen","kind":"contextService"}}"#,
            #"{"kind":"launch","by":"opctl","participant":"PhoneOp","label":"launch(nil)"}"#,
            #"{"kind":"create","by":"PhoneOp","participant":"PhoneScreen","label":"create"}"#,
            #"{"kind":"message","from":"PhoneOp","to":"PhoneScreen","label":"show(PhoneViewModel)","style":"call"}"#,
            #"{"kind":"message","from":"PhoneScreen","to":"PhoneOp","label":"submitted(+799…4567)","style":"async"}"#,
            #"{"kind":"message","from":"PhoneOp","to":"PhoneScreen","label":"dismiss()","style":"call"}"#,
            #"{"kind":"release","participant":"PhoneScreen"}"#,
            #"{"kind":"message","from":"PhoneOp","to":"AuthAPI","label":"submitPhone(+799…4567)","style":"call"}"#,
        ]
        let recorded = try Trace.recorded(jsonLines: Data((lines.joined(separator: "\n") + "\n").utf8))
        try recorded.trace.validate()
        #expect(recorded.endsCutOff)
        #expect(
            Array(recorded.trace.events.suffix(3)) == [
                .note(over: "PhoneOp", Trace.cutOffLabel),
                .reply(from: "AuthAPI", to: "PhoneOp", Trace.cutOffLabel),
                .finish("PhoneOp", to: "opctl", Trace.cutOffLabel),
            ])
        #expect(Self.failures(drawing: recorded.markingSessions()).isEmpty)
    }

    /// Launches of one step drawn together: a launch that left its screen up (cancelled while
    /// it asked) ends it before the next launch creates it again.
    @Test func joinedLaunchesEndWhatEachLeftAlive() throws {
        let events: [TraceEvent] = [
            .declare(.caller("App")), .declare(.operation("S")), .declare(.operation("CodeOp")),
            .declare(.contextService("CodeScreen")),
            .launch("S", by: "App", "launch"),
            .launch("CodeOp", by: "S", "launch 1"), .create("CodeScreen", by: "CodeOp"),
            .call(from: "CodeOp", to: "CodeScreen", "show"),
            .finish("CodeOp", to: "S", "onFinish(cancelled)"),
            .release("CodeScreen"),
            .launch("CodeOp", by: "S", "launch 2"), .create("CodeScreen", by: "CodeOp"),
            .release("CodeScreen"),
            .finish("CodeOp", to: "S", "onFinish"),
            .finish("S", to: "App", "onFinish"),
        ]
        let trace = Trace(events: events)
        try trace.validate()
        let joined = TraceSection.joined(trace.sections(named: "CodeOp"))
        try joined.validate()
        #expect(joined.events.filter { $0 == .release("CodeScreen") }.count == 2)
    }

    // MARK: - Damaged traces draw what they can

    private static let sound: [TraceEvent] = [
        .declare(.caller("App")), .declare(.operation("Scenario")), .declare(.operation("PhoneOp")),
        .declare(.keyService("API")), .declare(.contextService("Screen")),
        .launch("Scenario", by: "App", "launch"),
        .launch("PhoneOp", by: "Scenario", "launch(phone)"),
        .create("Screen", by: "PhoneOp"),
        .call(from: "PhoneOp", to: "Screen", "show"),
        .reply(from: "Screen", to: "PhoneOp", "phone"),
        .call(from: "PhoneOp", to: "API", "submitPhone"),
        .reply(from: "API", to: "PhoneOp", "token"),
        .release("Screen"),
        .finish("PhoneOp", to: "Scenario", "onFinish(token)"),
        .finish("Scenario", to: "App", "onFinish(token)"),
    ]

    /// Each event of a sound trace lost in turn (a line gone from the file), and each doubled:
    /// the drawing shows the rest, says where it could not balance, and validates.
    @Test func aTraceMissingOrRepeatingAnyEventIsDrawnAndMarked() throws {
        for index in Self.sound.indices {
            var lost = Self.sound
            lost.remove(at: index)
            var doubled = Self.sound
            doubled.insert(Self.sound[index], at: index)
            for events in [lost, doubled] {
                let drawable = Trace(events: events).drawable()
                try drawable.validate()
                #expect(Self.failures(drawing: drawable, mended: true).isEmpty)
                if (try? Trace(events: events).validate()) == nil {
                    #expect(
                        drawable.events.contains { event in
                            if case .note(_, let text) = event.kind { Trace.isMark(text) } else { false }
                        }, "\(events)")
                }
            }
        }
    }

    @Test func aSoundTraceIsDrawableAsItIs() {
        #expect(Trace(events: Self.sound).drawable() == Trace(events: Self.sound))
    }

    @Test func theMarksSayWhatCouldNotBeDrawn() throws {
        var events = Self.sound
        events.insert(.launch("PhoneOp", by: "Scenario", "launch(again)"), at: 8)
        events.insert(.reply(from: "API", to: "Scenario", "stray"), at: 3 + 8)
        let drawable = Trace(events: events).drawable()
        let notes = drawable.events.compactMap { event -> String? in
            if case .note(_, let text) = event.kind { text } else { nil }
        }
        #expect(notes.contains("unbalanced: PhoneOp launched again before it finished"), "\(notes)")
        #expect(notes.allSatisfy { !$0.contains("event[") }, "an index means nothing in a drawing: \(notes)")
        let text = try TextDiagramRenderer(maxWidth: 120).render(drawable)
        #expect(text.contains("unbalanced:"), "\(text)")
    }

    /// Past the mending limit the rest is given up: the trace ends where it stopped making
    /// sense, closed, under a note saying so.
    @Test func aTraceBeyondMendingEndsWhereItStoppedMakingSense() throws {
        var events = Array(Self.sound.prefix(9))
        for _ in 0..<200 { events.append(.reply(from: "API", to: "Scenario", "stray")) }
        let drawable = Trace(events: events).drawable()
        try drawable.validate()
        #expect(
            drawable.events.contains { event in
                if case .note(_, let text) = event.kind { text.hasPrefix("trace cut off here") } else { false }
            })
        #expect(Self.failures(drawing: drawable, mended: true).isEmpty)
    }
}
