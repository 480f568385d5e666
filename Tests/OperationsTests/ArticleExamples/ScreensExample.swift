import Foundation
import Observation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

// Screens.md's example, compiled: the block between the markers below must be the article's
// code block byte for byte (the last test checks).

// Screens example begin
/// A sign-up flow that asks a person for a nickname, in a namespace of its own.
enum SignUp {
    /// The screen the operation talks to. It is called from any thread; the prompt answers once
    /// and off the screen's actor, and closes when the launch ends first.
    protocol NicknameScreen: Sendable {
        func askForNickname(_ prompt: ScreenPrompt<String>)
    }

    /// Asks for the nickname: the operation's only interface is still launch(_:onFinish:).
    final class AskNicknameOp: PureOp {
        private let screen: any NicknameScreen
        init(screen: any NicknameScreen) { self.screen = screen }

        func launch(_ context: OpContext<Void>, onFinish: @escaping OnFinish<String>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            screen.askForNickname(ScreenPrompt(for: context) { completion.finish($0) })
        }
    }

    /// The view model: main-actor state a view observes, and the screen the operation asks.
    @MainActor
    @Observable
    final class ViewModel: NicknameScreen {
        enum State: Equatable {
            case idle
            case askingForNickname
            case signedUp(String)
            case failed(String)
        }

        private(set) var state = State.idle
        @ObservationIgnored private var prompt: ScreenPrompt<String>?
        @ObservationIgnored private var task: Task<Void, Never>?

        func start() {
            let op = AskNicknameOp(screen: self)
            task = Task {
                do {
                    state = .signedUp(try await op.launch(with: ()))
                } catch {
                    state = .failed("\(error)")
                }
            }
        }

        func cancel() { task?.cancel() }

        /// The person's answer returns at once: the prompt hands it to the flow off the main actor.
        func submit(_ nickname: String) {
            prompt?.answer(nickname)
            prompt = nil
        }

        nonisolated func askForNickname(_ prompt: ScreenPrompt<String>) {
            Task { @MainActor in
                self.prompt = prompt
                self.state = .askingForNickname
            }
            // Cancelled or past its deadline: the question goes away with the launch.
            prompt.onClose { _ in
                Task { @MainActor in
                    if self.prompt === prompt { self.prompt = nil }
                }
            }
        }
    }
}
// Screens example end

@MainActor
struct ScreensExampleTests {
    @Test func theAnswerFinishesTheFlow() async throws {
        let model = SignUp.ViewModel()
        model.start()
        _ = try await waitFor({ model.state }, until: { $0 == .askingForNickname })
        model.submit("ada")
        let state = try await waitFor(
            { model.state }, until: { if case .signedUp = $0 { true } else { false } })
        #expect(state == .signedUp("ada"))
    }

    @Test func cancellingTakesTheQuestionAway() async throws {
        let model = SignUp.ViewModel()
        model.start()
        _ = try await waitFor({ model.state }, until: { $0 == .askingForNickname })
        model.cancel()
        let state = try await waitFor(
            { model.state }, until: { if case .failed = $0 { true } else { false } })
        // The awaiting task was cancelled: Swift concurrency's error, as any cancelled await throws.
        #expect(state == .failed("\(CancellationError())"))
        model.submit("too late")
        #expect(model.state == state)
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("Screens", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/Screens.md")
        #expect(ArticleText.shows(example, importing: ["Observation", "Operations"], in: article))
    }
}
