import AuthFlow
import AuthFlowDiagrams
import Operations
import OperationsDiagrams
import Testing

/// Issue 36 §5: the traced runs behind `Diagrams/` draw an operation as seeds/003 does — the
/// view model a context service the operation creates, handed ``AuthAPI`` (a hard link) and
/// bound to the router (a context link); a key service launching a lone operation from its own
/// lifeline; no bars on key services in PlantUML and Mermaid; no lifeline nothing talks to.
struct ArticleDiagramTests {
    /// The operation, the view model it creates, and the words of seeds/003's picture.
    static let screenSteps: [(diagram: String, operation: Participant.ID, viewModel: Participant)] = [
        ("PhoneOp", "PhoneOp", .phoneViewModel),
        ("TermsOfUseOp", "TermsOfUseOp", .termsViewModel),
        ("CodeOp", "CodeOp", .codeViewModel),
        ("AuthOp", "AuthOp", .phoneViewModel),
        ("AuthOp", "AuthOp", .codeViewModel),
    ]

    @Test(arguments: 0..<screenSteps.count)
    func theOperationCreatesItsViewModelHandsItTheAPIAndBindsItToTheRouter(index: Int) throws {
        let (name, operation, viewModel) = Self.screenSteps[index]
        let events = try AuthDiagrams.trace(of: name).events.map(\.kind)

        let created = try #require(
            events.firstIndex(of: .create(viewModel.id, by: operation, label: "create(AuthAPI)")),
            "\(name): \(operation) does not create \(viewModel.name) handing it AuthAPI")
        #expect(events.contains(.declare(viewModel)), "\(viewModel.name) is not a context service")
        let bound = try #require(
            events.firstIndex(
                of: .message(
                    from: operation, to: Participant.router.id, label: "bind(\(viewModel.name))", style: .call)),
            "\(name): \(viewModel.name) is not bound to the router")
        let released = try #require(events.firstIndex(of: .release(viewModel.id)))
        #expect(created < bound && bound < released)
        // The hard link is used: the view model, not the operation, calls the AuthAPI it was handed.
        let calls = events[created..<released].filter {
            if case .message(viewModel.id, Participant.authAPI.id, _, .call) = $0 { true } else { false }
        }
        #expect(!calls.isEmpty, "\(name): \(viewModel.name) never calls AuthAPI")
    }

    @Test func aKeyServiceLaunchesTheLoneTermsFlowFromItsOwnLifeline() throws {
        let events = try AuthDiagrams.trace(of: "AppScenario.termsChangedEvent").events.map(\.kind)
        let keeper = SessionKeeper.participant.id
        #expect(events.contains(.declare(SessionKeeper.participant)))
        let launches = events.compactMap { kind -> Participant.ID? in
            if case .launch("TermsOfUseOp", let launcher, _) = kind { launcher } else { nil }
        }
        #expect(launches == [keeper], "launched by \(launches)")
        #expect(events.contains(.finish("TermsOfUseOp", to: keeper, label: "onFinish(acceptedNewTerms(sim…7eKw))")))
    }

    /// `opctl diagram --run ID --step TermsOfUseOp` finds the lone flow: a launch a key service
    /// makes between the scenario's steps is a section, drawn from the key service's edge.
    @Test func theLoneFlowIsASectionLaunchedFromTheKeyService() throws {
        let trace = try AuthDiagrams.trace(of: "AppScenario.termsChangedEvent")
        let sections = trace.sections(named: "TermsOfUseOp")
        #expect(sections.count == 1)
        let section = try #require(sections.first)
        let edge = Participant(id: SessionKeeper.participant.id, name: "SessionKeeper", kind: .caller)
        #expect(section.trace.participants.contains(edge))
        #expect(try DiagramFormat.unicode.render(section).contains("launch(nil)"))
    }

    @Test(arguments: DiagramDriftTests.names)
    func keyServicesGetNoBarsInTheExports(name: String) throws {
        let trace = try DiagramDriftTests.trace(of: name)
        let keyServices = trace.participants.filter { $0.kind == .keyService }.map(\.name)
        let plantUML = try AuthDiagrams.render(trace, format: .plantuml).split(separator: "\n")
        let mermaid = try AuthDiagrams.render(trace, format: .mermaid).split(separator: "\n")
        for service in keyServices {
            for bar in ["activate \(service)", "deactivate \(service)"] {
                #expect(!plantUML.contains { $0 == bar }, "\(name).puml: \(bar)")
                #expect(!mermaid.contains { $0 == "    " + bar }, "\(name).mmd: \(bar)")
            }
        }
    }

    @Test(arguments: DiagramDriftTests.names)
    func everyLifelineIsTalkedTo(name: String) throws {
        let trace = try DiagramDriftTests.trace(of: name)
        var used: Set<Participant.ID> = []
        for event in trace.events {
            switch event.kind {
            case .message(let from, let to, _, _), .launch(let to, let from, _), .finish(let from, let to, _):
                used.formUnion([from, to])
            case .create(let service, let creator, _): used.formUnion([service, creator])
            case .note(let over, _): used.insert(over)
            default: break
            }
        }
        let idle = trace.participants.filter { $0.kind != .caller && !used.contains($0.id) }.map(\.name)
        #expect(idle.isEmpty, "\(name) draws lifelines nothing talks to: \(idle)")
    }
}
