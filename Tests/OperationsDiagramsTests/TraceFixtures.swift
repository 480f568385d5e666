import Dispatch
import Operations
import OperationsTestSupport

/// Hand-built traces shared by the renderer tests, one per situation the issue lists.
enum TraceFixtures {
    static let scenario = Participant.caller("AuthScenario")
    static let phoneOp = Participant.operation("PhoneOp")
    static let authAPI = Participant.keyService("AuthAPI")
    static let localStorage = Participant.keyService("LocalStorage")
    static let phoneScreen = Participant.contextService("PhoneScreen")
    static let phoneViewModel = Participant.contextService("PhoneViewModel")

    /// A raw token and SMS code that must never appear in any output.
    static let secretToken = TestToken(rawValue: "tok_9f8e7d6c5b4a3210a1f3")
    static let secretCode = TestSMSCode(rawValue: "482913")

    /// Every fixture, by the name its golden files use.
    static let all: [(name: String, trace: @Sendable () -> Trace)] = [
        ("two-key-services", { twoKeyServices }),
        ("context-service-midway", { contextServiceMidway }),
        ("overlapping-context-services", { overlappingContextServices }),
        ("self-message", { selfMessage }),
        ("note", { note }),
        ("long-label", { longLabel }),
        ("async-callback", { asyncCallback() }),
        ("redacted-secrets", { redactedSecrets }),
        ("nested-operation", { nestedOperation }),
        ("phone-op-target", { phoneOpTarget }),
        ("frames", { frames }),
    ]

    /// The hand-drawn PhoneOp target of DIAGRAMS.md.
    ///
    /// `submit(phone)` is recorded as an async message (a UI event), so that the `token` reply
    /// answers the view model's creation and its bar is the plain existence bar of the picture.
    static var phoneOpTarget: Trace {
        Trace(events: [
            .declare(scenario),
            .declare(phoneOp),
            .declare(authAPI),
            .declare(localStorage),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .declare(phoneScreen),
            .create("PhoneScreen", by: "PhoneOp"),
            .declare(phoneViewModel),
            .create("PhoneViewModel", by: "PhoneScreen"),
            .async(from: "PhoneScreen", to: "PhoneViewModel", "submit(phone)"),
            .call(from: "PhoneViewModel", to: "AuthAPI", "requestCode(phone)"),
            .reply(from: "AuthAPI", to: "PhoneViewModel", "token"),
            .note(over: "PhoneViewModel", "LocalStorage is never touched in the pure variant"),
            .reply(from: "PhoneViewModel", to: "PhoneScreen", "token"),
            .release("PhoneViewModel"),
            .reply(from: "PhoneScreen", to: "PhoneOp", "token"),
            .release("PhoneScreen"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(token)"),
        ])
    }

    /// An operation talking to two key services.
    static var twoKeyServices: Trace {
        Trace(events: [
            .declare(scenario), .declare(phoneOp), .declare(authAPI), .declare(localStorage),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
            .call(from: "PhoneOp", to: "LocalStorage", "save(phoneToken)"),
            .reply(from: "LocalStorage", to: "PhoneOp", "ok"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
        ])
    }

    /// A context service created and released in the middle of the run.
    static var contextServiceMidway: Trace {
        Trace(events: [
            .declare(scenario), .declare(phoneOp), .declare(authAPI),
            .launch("PhoneOp", by: "AuthScenario", "launch"),
            .call(from: "PhoneOp", to: "AuthAPI", "fetchCountries()"),
            .reply(from: "AuthAPI", to: "PhoneOp", "countries"),
            .declare(phoneViewModel),
            .create("PhoneViewModel", by: "PhoneOp", "create(countries)"),
            .call(from: "PhoneOp", to: "PhoneViewModel", "validate(phone)"),
            .reply(from: "PhoneViewModel", to: "PhoneOp", "valid"),
            .release("PhoneViewModel"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
        ])
    }

    /// Two context services whose lifetimes overlap: the screen goes before its view model.
    static var overlappingContextServices: Trace {
        Trace(events: [
            .declare(scenario), .declare(phoneOp), .declare(authAPI),
            .launch("PhoneOp", by: "AuthScenario", "launch"),
            .declare(phoneViewModel),
            .create("PhoneViewModel", by: "PhoneOp"),
            .declare(phoneScreen),
            .create("PhoneScreen", by: "PhoneOp", "create(viewModel)"),
            .async(from: "PhoneScreen", to: "PhoneOp", "didSubmit(phone)"),
            .release("PhoneScreen"),
            .call(from: "PhoneOp", to: "PhoneViewModel", "normalize(phone)"),
            .reply(from: "PhoneViewModel", to: "PhoneOp", "+15550100"),
            .call(from: "PhoneViewModel", to: "AuthAPI", "track(submit)"),
            .release("PhoneViewModel"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(+15550100)"),
        ])
    }

    /// A self-message between two ordinary calls.
    static var selfMessage: Trace {
        Trace(events: [
            .declare(scenario), .declare(phoneOp), .declare(authAPI),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .call(from: "PhoneOp", to: "PhoneOp", "normalize(phone)"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
            .async(from: "PhoneOp", to: "PhoneOp", "scheduleRetry(after: 30 s)"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
        ])
    }

    /// Notes on an operation and on the last key service.
    static var note: Trace {
        Trace(events: [
            .declare(scenario), .declare(phoneOp), .declare(authAPI),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .note(over: "PhoneOp", "Pure operation: no shared state, safe to launch again"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
            .note(over: "AuthAPI", "The simulator answers over HTTP in process, as a real server would"),
            .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
        ])
    }

    /// A label far longer than any width, and one long unbreakable token.
    static var longLabel: Trace {
        let long =
            "requestCode(phone: +15550100, locale: en_US, channel: sms, deviceID: 6F9619FF-8B86-D011-B42D-00C04FC964FF, reason: signIn, attempt: 3, previousToken: none)"
        return Trace(events: [
            .declare(scenario), .declare(phoneOp), .declare(authAPI),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .call(from: "PhoneOp", to: "AuthAPI", long),
            .reply(from: "AuthAPI", to: "PhoneOp", "AuthenticationChallengeWithAnExtremelyLongTypeNameThatCannotWrap"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
        ])
    }

    /// A completion handler recorded on another thread, through the recording scope.
    static func asyncCallback() -> Trace {
        let tracer = InMemoryTracer()
        let root = TraceScope.root(tracer, caller: scenario)
        let operation = root.launch(phoneOp, "launch(phone)")
        operation.declare(authAPI)
        operation.message(to: authAPI, "requestCode(phone) { … }")
        let api = operation.scope(for: authAPI)
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            api.async(to: operation.participant, "completion(.success(phoneToken))")
            group.leave()
        }
        group.wait()
        operation.finish("onFinish(phoneToken)")
        return tracer.trace
    }

    /// Secrets in labels, built through their redacted forms.
    static var redactedSecrets: Trace {
        let tracer = InMemoryTracer()
        let root = TraceScope.root(tracer, caller: scenario)
        let codeOp = Participant.operation("CodeOp")
        let operation = root.launch(codeOp, "launch(\(secretToken))")
        operation.declare(authAPI)
        operation.declare(localStorage)
        operation.message(to: authAPI, "verify(\(secretToken), code: \(secretCode))")
        operation.scope(for: authAPI).reply(to: codeOp, "authToken(\(secretToken))")
        operation.message(to: localStorage, "save(\(redactedToken: secretToken.rawValue))")
        operation.scope(for: localStorage).reply(to: codeOp, "ok")
        operation.finish("onFinish(\(secretToken))")
        return tracer.trace
    }

    /// A scenario launching a nested operation, with a call back into the running operation
    /// (a nested activation bar).
    static var nestedOperation: Trace {
        let app = Participant.caller("App")
        let authScenario = Participant.operation("AuthScenario")
        return Trace(events: [
            .declare(app), .declare(authScenario), .declare(phoneOp), .declare(authAPI),
            .launch("AuthScenario", by: "App", "launch"),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .declare(phoneScreen),
            .create("PhoneScreen", by: "PhoneOp"),
            .call(from: "PhoneScreen", to: "PhoneOp", "validate(phone)"),
            .reply(from: "PhoneOp", to: "PhoneScreen", "valid"),
            .reply(from: "PhoneScreen", to: "PhoneOp", "phone"),
            .release("PhoneScreen"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
            .finish("AuthScenario", to: "App", "onFinish(authToken)"),
        ])
    }
}

extension TraceFixtures {
    /// A scenario inside a group, with a retry (`loop`), a conditional step (`opt`) and a re-ask
    /// with an `else` (`alt`): frames nested two deep.
    static var frames: Trace {
        let app = Participant.caller("App")
        let authScenario = Participant.operation("AuthScenario")
        let termsOp = Participant.operation("TermsOfUseOp")
        let codeOp = Participant.operation("CodeOp")
        return Trace(events: [
            .declare(app), .declare(authScenario), .declare(phoneOp), .declare(termsOp), .declare(codeOp),
            .declare(authAPI),
            .openFrame(.group, "sign-in", by: "App"),
            .launch("AuthScenario", by: "App", "launch"),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .call(from: "PhoneOp", to: "AuthAPI", "submitPhone(phone)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "HTTP 503"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(error: unavailable)"),
            .openFrame(.loop, "retry 2 of 3: the server is unavailable (HTTP 503)", by: "AuthScenario"),
            .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
            .call(from: "PhoneOp", to: "AuthAPI", "submitPhone(phone)"),
            .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
            .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
            .closeFrame,
            .openFrame(.opt, "terms required", by: "AuthScenario"),
            .launch("TermsOfUseOp", by: "AuthScenario", "launch(phoneToken)"),
            .finish("TermsOfUseOp", to: "AuthScenario", "onFinish(accepted v2)"),
            .closeFrame,
            .launch("CodeOp", by: "AuthScenario", "launch(codeRequest)"),
            .finish("CodeOp", to: "AuthScenario", "onFinish(error: wrong code)"),
            .openFrame(.alt, "wrong code, asked again", by: "AuthScenario"),
            .launch("CodeOp", by: "AuthScenario", "launch(codeRequest)"),
            .finish("CodeOp", to: "AuthScenario", "onFinish(authToken)"),
            .branch("no attempts left"),
            .note(over: "AuthScenario", "the run ends with the wrong code"),
            .closeFrame,
            .finish("AuthScenario", to: "App", "onFinish(authToken)"),
            .closeFrame,
        ])
    }
}

/// A token type as the sign-in domain would declare it.
struct TestToken: Redactable, Sendable {
    let rawValue: String
    var redacted: String { Redaction.token(rawValue) }
}

/// An SMS code as the sign-in domain would declare it.
struct TestSMSCode: Redactable, Sendable {
    let rawValue: String
    var redacted: String { Redaction.mask(rawValue) }
}
