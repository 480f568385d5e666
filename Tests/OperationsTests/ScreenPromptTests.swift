import Dispatch
import Foundation
import Operations
import OperationsTesting
import Synchronization
import Testing

/// A screen the tests drive: it keeps the prompt it was shown and whether it was told to close.
private final class CardScreen: Sendable {
    let shown = Mutex<ScreenPrompt<String>?>(nil)
    let closed = Mutex<ScreenPrompt<String>.CloseReason?>(nil)
    let closedSignal = DispatchSemaphore(value: 0)

    func ask(_ prompt: ScreenPrompt<String>) {
        prompt.onClose { reason in
            self.closed.withLock { $0 = reason }
            self.closedSignal.signal()
        }
        shown.withLock { $0 = prompt }
    }

    var prompt: ScreenPrompt<String>? { shown.withLock { $0 } }
}

/// Asks its screen for a card and finishes with the answer.
private final class AskCardOp: Op {
    let screen: CardScreen
    init(screen: CardScreen) { self.screen = screen }

    func launch(_ context: OpContext<Void>, onFinish: @escaping OnFinish<String>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        screen.ask(ScreenPrompt(for: context) { completion.finish($0) })
    }
}

/// What the issue asked of the screen helper: one answer, delivered off the caller's actor, and
/// a screen that closes with its launch.
struct ScreenPromptTests {
    @Test @MainActor func theAnswerReachesTheOperationOnceAndOffTheMainActor() async throws {
        let recorder = DiagnosticsRecorder()
        let onMain = Mutex<Bool?>(nil)
        let answers = Mutex<[String]>([])
        let prompt = ScreenPrompt<String>(cancellation: nil, environment: OpEnvironment(diagnostics: recorder)) {
            result in
            onMain.withLock { $0 = Thread.isMainThread }
            answers.withLock { $0.append((try? result.get()) ?? "error") }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let delivered = ScreenPrompt<String>(cancellation: nil) { _ in done.resume() }
            prompt.answer("tok_visa")
            prompt.answer("tok_mastercard")  // a double tap
            delivered.answer("flush")  // the same global queue: delivered after the first answer
        }
        #expect(answers.withLock { $0 } == ["tok_visa"])
        #expect(onMain.withLock { $0 } == false)
        #expect(recorder.count(.answeredTwice) == 1)
        #expect(!prompt.isOpen)
    }

    @Test func cancellingTheLaunchClosesTheScreenAndFinishesItCancelled() throws {
        let screen = CardScreen()
        let token = CancellationToken()
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<String, any Error>?>(nil)
        AskCardOp(screen: screen).launch(OpContext((), cancellation: token)) { result in
            outcome.withLock { $0 = result }
            finished.signal()
        }
        #expect(screen.prompt?.isOpen == true)
        token.cancel()
        #expect(finished.wait(timeout: .now() + TestTimeout.standard.dispatchInterval) == .success)
        #expect(screen.closedSignal.wait(timeout: .now() + TestTimeout.standard.dispatchInterval) == .success)
        #expect(screen.closed.withLock { $0 } == .cancelled)
        #expect(throws: OpError.cancelled) { try outcome.withLock { $0 }?.get() }
        // The person answers a question that is gone: dropped without a diagnostic.
        screen.prompt?.answer("tok_late")
        #expect(screen.prompt?.isOpen == false)
    }

    @Test func theDeadlineClosesTheScreen() throws {
        let scheduler = TestScheduler()
        let recorder = DiagnosticsRecorder()
        let screen = CardScreen()
        let context = OpContext((), environment: OpEnvironment(scheduler: scheduler, diagnostics: recorder))
            .withTimeout(.seconds(30))
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<String, any Error>?>(nil)
        AskCardOp(screen: screen).launch(context) { result in
            outcome.withLock { $0 = result }
            finished.signal()
        }
        scheduler.advance(by: .seconds(29))
        #expect(screen.closed.withLock { $0 } == nil)
        scheduler.advance(by: .seconds(1))
        #expect(screen.closedSignal.wait(timeout: .now() + TestTimeout.standard.dispatchInterval) == .success)
        #expect(screen.closed.withLock { $0 } == .timedOut)
        #expect(finished.wait(timeout: .now() + TestTimeout.standard.dispatchInterval) == .success)
        #expect(throws: OpError.timedOut) { try outcome.withLock { $0 }?.get() }
        #expect(recorder.diagnostics.isEmpty)
    }

    @Test func aScreenShownAfterTheLaunchEndedClosesAtOnce() {
        let token = CancellationToken()
        token.cancel()
        let prompt = ScreenPrompt<String>(cancellation: token) { _ in Issue.record("no answer expected") }
        let closed = Mutex<ScreenPrompt<String>.CloseReason?>(nil)
        prompt.onClose { reason in closed.withLock { $0 = reason } }
        #expect(closed.withLock { $0 } == .cancelled)
        prompt.answer("tok_visa")
        #expect(!prompt.isOpen)
    }

    @Test func theAnsweredOperationFinishesWithTheAnswer() throws {
        let screen = CardScreen()
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<String, any Error>?>(nil)
        AskCardOp(screen: screen).launch(OpContext(())) { result in
            outcome.withLock { $0 = result }
            finished.signal()
        }
        screen.prompt?.answer("tok_visa")
        #expect(finished.wait(timeout: .now() + TestTimeout.standard.dispatchInterval) == .success)
        #expect(try outcome.withLock { $0 }?.get() == "tok_visa")
        #expect(screen.closed.withLock { $0 } == nil)
    }
}
