import Foundation
import OperationsTestSupport
import Testing

@testable import Operations
@testable import OperationsDiagrams

/// Issue 36, point 2, the QA's wrapping: a wide drawing broke tokens inside a word while the
/// page had room (`laun` / `ch(`, `verificati` / `onRequest` at 140-160 columns), and a frame
/// gutter of a column per nesting level left `launch(+799…4567)` four rows of four columns at
/// 60. Labels now break at spaces and punctuation, then between an identifier's words, and
/// inside a word only when no drawing (names abbreviated, steps one by one) keeps it whole;
/// nested frames share one border column when the page is too narrow for one each.
struct WrapAtWordsTests {
    /// The shape of QA's run: the app signing in (a sign-in scenario in an `opt`, a nested
    /// verification scenario in a `group`, the terms step in an `opt`, a wrong code in a
    /// `loop`), with its real labels.
    static func signInRun() -> Trace {
        var events: [TraceEvent] = [.declare(.caller("opctl"))]
        for name in [
            "AppScenario", "CheckSessionOp", "AuthScenario", "PhoneOp", "VerificationScenario", "TermsOfUseOp",
            "CodeOp", "SaveTokenOp",
        ] {
            events.append(.declare(.operation(name)))
        }
        for name in ["LocalStorage", "AuthAPI"] { events.append(.declare(.keyService(name))) }
        for name in ["PhoneScreen", "TermsScreen", "CodeScreen"] { events.append(.declare(.contextService(name))) }
        func screen(_ op: Participant.ID, _ screen: Participant.ID, _ model: String, _ answer: String) {
            events += [
                .create(screen, by: op), .call(from: op, to: screen, "show(\(model))"),
                .async(from: screen, to: op, answer),
            ]
        }
        func done(_ op: Participant.ID, _ screen: Participant.ID) {
            events += [.call(from: op, to: screen, "dismiss()"), .release(screen)]
        }
        events += [
            .launch("AppScenario", by: "opctl", "launch(+799…4567)"),
            .note(over: "AppScenario", "phoneNumber +799…4567\npure"),
            .launch("CheckSessionOp", by: "AppScenario", "launch(+799…4567)"),
            .call(from: "CheckSessionOp", to: "LocalStorage", "loadAuthToken()"),
            .reply(from: "LocalStorage", to: "CheckSessionOp", "nil"),
            .finish("CheckSessionOp", to: "AppScenario", "onFinish(sessionCheck)"),
            .openFrame(.opt, "signed out", by: "AppScenario"),
            .openFrame(.group, "AuthScenario", by: "AppScenario"),
            .launch("AuthScenario", by: "AppScenario", "launch(+799…4567)"),
            .launch("PhoneOp", by: "AuthScenario", "launch(+799…4567)"),
        ]
        screen("PhoneOp", "PhoneScreen", "PhoneViewModel", "submitted(+799…4567)")
        events += [
            .call(from: "PhoneOp", to: "AuthAPI", "submitPhone(+799…4567)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "sim…feMk"),
        ]
        done("PhoneOp", "PhoneScreen")
        events += [
            .finish("PhoneOp", to: "AuthScenario", "onFinish(sim…feMk)"),
            .call(from: "AuthScenario", to: "AuthScenario", "signInAttempt → verificationRequest"),
            .openFrame(.group, "VerificationScenario", by: "AuthScenario"),
            .launch("VerificationScenario", by: "AuthScenario", "launch(sim…feMk)"),
            .openFrame(.opt, "terms required", by: "VerificationScenario"),
            .launch("TermsOfUseOp", by: "VerificationScenario", "launch(sim…feMk)"),
            .call(from: "TermsOfUseOp", to: "AuthAPI", "fetchTerms(sim…feMk)"),
            .reply(from: "AuthAPI", to: "TermsOfUseOp", "terms v1"),
        ]
        screen("TermsOfUseOp", "TermsScreen", "TermsViewModel", "accepted")
        events += [
            .call(from: "TermsOfUseOp", to: "AuthAPI", "acceptTerms(v1)"),
            .reply(from: "AuthAPI", to: "TermsOfUseOp", "sim…oqJw"),
        ]
        done("TermsOfUseOp", "TermsScreen")
        events += [
            .finish("TermsOfUseOp", to: "VerificationScenario", "onFinish(v1)"),
            .call(
                from: "VerificationScenario", to: "VerificationScenario",
                "verificationRequest + termsAcceptance → verificationRequest"),
            .closeFrame,
            .openFrame(.loop, "wrong code, asked again (2 attempts left)", by: "VerificationScenario"),
            .launch("CodeOp", by: "VerificationScenario", "launch(sim…oqJw)"),
            .call(from: "CodeOp", to: "AuthAPI", "sendCode(sim…oqJw)"),
            .reply(from: "AuthAPI", to: "CodeOp", "resend after 30 s"),
        ]
        screen("CodeOp", "CodeScreen", "CodeViewModel", "submitted(••••••)")
        events += [
            .call(from: "CodeOp", to: "AuthAPI", "verifyCode(••••••)"),
            .reply(from: "AuthAPI", to: "CodeOp", "sim…nsfE"),
        ]
        done("CodeOp", "CodeScreen")
        events += [
            .finish("CodeOp", to: "VerificationScenario", "onFinish(sim…nsfE)"),
            .closeFrame,
            .finish("VerificationScenario", to: "AuthScenario", "onFinish(sim…nsfE)"),
            .closeFrame,
            .launch("SaveTokenOp", by: "AuthScenario", "launch(sim…nsfE)"),
            .call(from: "SaveTokenOp", to: "LocalStorage", "saveAuthToken(sim…nsfE)"),
            .reply(from: "LocalStorage", to: "SaveTokenOp", "saved"),
            .finish("SaveTokenOp", to: "AuthScenario", "onFinish(sim…nsfE)"),
            .finish("AuthScenario", to: "AppScenario", "onFinish(sim…nsfE)"),
            .closeFrame, .closeFrame,
            .finish("AppScenario", to: "opctl", "onFinish(signedIn(sim…nsfE))"),
        ]
        return Trace(events: events)
    }

    /// The words QA saw broken, each as it must read: whole, or split only where the words
    /// of an identifier meet (`verification` / `Request`, `on` / `Finish(`).
    private static let words = [
        "launch(", "onFinish(", "verification", "+799…4567", "create", "dismiss()", "session",
    ]

    /// The first of `words` a line of `text` breaks off — the word's start, then the end of
    /// its row's text (`laun  │`) — with the line. A longer word that starts alike
    /// (`verifyCode(` for `verification`) is another word.
    static func brokenWord(in text: String, words: [String] = words) -> String? {
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        for line in text.split(separator: "\n").map(Array.init) {
            for word in words.map({ Array(ascii ? $0.replacingOccurrences(of: "…", with: "~") : $0) }) {
                var start = 0
                while start + 4 <= line.count {
                    defer { start += 1 }
                    guard Array(line[start..<start + 4]) == Array(word.prefix(4)) else { continue }
                    var matched = 4
                    while matched < word.count, start + matched < line.count, line[start + matched] == word[matched] {
                        matched += 1
                    }
                    if matched == word.count { continue }
                    let next = start + matched < line.count ? line[start + matched] : " "
                    if !(next.isLetter || next.isNumber) { return "\(String(word)) in: \(String(line))" }
                }
            }
        }
        return nil
    }

    /// QA: `laun` / `ch(` and `verificati` / `onRequest` at 140-160 columns; every width from
    /// a narrow terminal's up keeps them whole now, at every depth.
    @Test(arguments: [60, 80, 100, 120, 140, 150, 160])
    func wordsStayWholeAtEveryWidthAndDepth(width: Int) throws {
        let trace = Self.signInRun()
        try trace.validate()
        // ASCII has the same geometry (criterion 13): one charset is enough here.
        for depth in 1...6 {
            let text = try TextDiagramRenderer(maxWidth: width).render(trace.limited(toDepth: depth))
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= width }, "depth \(depth)")
            #expect(Self.brokenWord(in: text) == nil, "width \(width), depth \(depth):\n\(text)")
        }
    }

    /// The check itself: it sees QA's broken words.
    @Test func theCheckSeesABrokenWord() {
        #expect(Self.brokenWord(in: "    laun  │\n    ch(   │") != nil)
        #expect(Self.brokenWord(in: "│ │───┐ verificati  │\n│ │   │ onRequest   │") != nil)
        #expect(Self.brokenWord(in: "│ │───┐ verification │\n│ │   │ Request    │") == nil)
        #expect(Self.brokenWord(in: "  launch(      │\n  +799…4567)   │") == nil)
    }

    /// A word of an identifier is measured for the words level of fitting: the widest of
    /// `verification` | `Request` is 12, `on` | `Finish(` 7; a token without inner words is
    /// its own word.
    @Test func identifiersAreMeasuredByTheirWords() {
        #expect(MeasuredLabel("signInAttempt → verificationRequest").longestWord == 12)
        #expect(MeasuredLabel("onFinish(sessionCheck)").longestWord == 7)
        #expect(MeasuredLabel("launch(+799…4567)").longestWord == 10)
        #expect(MeasuredLabel("user_id/path").longestWord == 5)
        // Wrapped no narrower than its widest word, a label breaks only between words.
        #expect(LabelWrapper.wrap("verificationRequest", width: 12) == ["verification", "Request"])
        #expect(LabelWrapper.wrap("onFinish(sessionCheck)", width: 8) == ["on", "Finish(", "session", "Check)"])
    }

    // MARK: - The gutter

    /// Frames nested `depth` deep around one launch, as a run's retries in its nested scenarios
    /// are.
    private static func nested(_ depth: Int) -> Trace {
        var events: [TraceEvent] = [
            .declare(.caller("opctl")), .declare(.operation("AuthScenario")), .declare(.operation("PhoneOp")),
            .declare(.keyService("AuthAPI")),
            .launch("AuthScenario", by: "opctl", "launch(+799…4567)"),
        ]
        for level in 0..<depth { events.append(.openFrame(.loop, "retry \(level + 2) of 9", by: "AuthScenario")) }
        events += [
            .launch("PhoneOp", by: "AuthScenario", "launch(+799…4567)"),
            .call(from: "PhoneOp", to: "AuthAPI", "submitPhone(+799…4567)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "sim…feMk"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(sim…feMk)"),
        ]
        events += Array(repeating: TraceEvent.closeFrame, count: depth)
        events.append(.finish("AuthScenario", to: "opctl", "onFinish(sim…feMk)"))
        return Trace(events: events)
    }

    /// QA: nested frames took a column each, and at 60 columns the launch label was left four
    /// rows of four. Where the page is too narrow, the frames share one border column, their
    /// rules joining it as tees, and the label keeps its words.
    @Test(arguments: [DiagramCharset.unicode, .ascii])
    func nestedFramesShareOneBorderOnANarrowPage(charset: DiagramCharset) throws {
        let trace = Self.nested(8)
        let narrow = try TextDiagramRenderer(maxWidth: 60, charset: charset, fitting: .strict).render(trace)
        let lines = narrow.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(narrow)")
        #expect(Self.brokenWord(in: narrow) == nil, "\(narrow)")
        // ASCII draws a tee as it draws a corner: the outer frame's top counts there too.
        let tee = charset == .unicode ? "├─ loop" : "+- loop"
        #expect(
            lines.filter { $0.hasPrefix(tee) }.count == (charset == .unicode ? 7 : 8),
            "the inner frames join the outer border:\n\(narrow)")
        // With room, each frame keeps a column of its own.
        let wide = try TextDiagramRenderer(maxWidth: 160, charset: charset, fitting: .strict).render(trace)
        let border = charset == .unicode ? "││││││││ " : "|||||||| "
        #expect(wide.split(separator: "\n").contains { $0.hasPrefix(border) }, "\(wide)")
    }
}
