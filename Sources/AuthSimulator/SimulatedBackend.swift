public import AuthFlow
import Foundation
public import Operations

/// The sign-in backend simulated in process, at the HTTP layer: an ``HTTPTransport`` that answers
/// the contract of `Docs/HTTP-API.md` with statuses, headers and JSON bodies, so ``HTTPAuthAPI``
/// takes the same code path as against a real server.
///
/// - Answers arrive asynchronously, after ``Configuration/latency``, on a Dispatch queue; the
///   caller's thread is never blocked.
/// - Tokens are signed with ``Configuration/signingKey`` and carry their phone, kind and expiry, so
///   another instance with the same key (in a later process) accepts them. Codes, attempt counters,
///   locks, kept answers and what is left of the fault plan live in this instance, or, with a
///   ``Configuration/stateStore``, in the store, read before each request and written after each that changed them, so that
///   every instance over one store is one backend.
/// - Faults can be injected per endpoint (``Fault``), and every request is counted per endpoint
///   (``requestCount(for:)``), so a test can prove a step was not sent again.
///
/// ```swift
/// let backend = SimulatedBackend(configuration: .init(faults: [.codeSend: [.unavailable(times: 2)]]))
/// let api = HTTPAuthAPI(transport: backend)
/// ```
public final class SimulatedBackend: HTTPTransport {
    /// The configuration it was created with; runtime changes (faults, terms) are separate.
    public let configuration: Configuration
    let state: LockedState<State>

    /// Creates a simulator.
    ///
    /// - Parameter configuration: How it behaves.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        state = LockedState(State(configuration: configuration))
    }

    /// Answers a request as the backend would.
    ///
    /// The request is handled at once (the backend acts when it receives it); only the answer
    /// waits for the latency, so a request cancelled meanwhile has still taken effect, as on a
    /// real server.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - cancellation: When it has fired by the time the answer is due, the answer is dropped
    ///     and the completion gets ``TransportError/cancelled``.
    ///   - completion: Receives the response after the configured latency; never called for a
    ///     request that meets a ``Fault/hang(times:)``; ``TransportError/connectionLost`` for one
    ///     that meets a ``Fault/lostResponse(times:)``.
    public func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let outcome = transaction(notStored: Self.notStoredResponse) { handle(request, state: &$0) }
        // After the state is stored: an SMS announced is one a rerun's backend knows it sent.
        if let sms = outcome.sms { configuration.onSMS?(sms) }
        guard let response = outcome.response else { return }
        let deliver: @Sendable () -> Void = {
            if cancellation?.isCancelled == true {
                completion(.failure(.cancelled))
            } else if outcome.lost {
                completion(.failure(.connectionLost))
            } else {
                completion(.success(response))
            }
        }
        if configuration.latency <= .zero, configuration.answersOnCallersThread {
            deliver()
        } else if configuration.latency <= .zero {
            DispatchQueue.global().async(execute: deliver)
        } else {
            DispatchQueue.global().asyncAfter(
                deadline: .now() + configuration.latency.dispatchInterval, execute: deliver)
        }
    }

    // MARK: - Counters

    /// How many requests reached an endpoint, faulted ones included.
    ///
    /// - Parameter endpoint: The endpoint.
    /// - Returns: The count since creation or the last ``resetRequestCounts()``.
    public func requestCount(for endpoint: Endpoint) -> Int {
        state.withLock { $0.counts[endpoint, default: 0] }
    }

    /// How many requests the backend acted on at an endpoint (sent an SMS, spent a verification,
    /// recorded an acceptance): faults that stop a request before it acts and repeats answered
    /// under their idempotency key do not count. What "never twice" is checked against.
    ///
    /// - Parameter endpoint: The endpoint.
    /// - Returns: The count since creation.
    public func actionCount(for endpoint: Endpoint) -> Int {
        state.withLock { $0.actions[endpoint, default: 0] }
    }

    /// Every endpoint's request count; endpoints never called are absent.
    public var requestCounts: [Endpoint: Int] {
        state.withLock { $0.counts }
    }

    /// Sets every request count back to zero.
    public func resetRequestCounts() {
        state.withLock { $0.counts = [:] }
    }

    // MARK: - SMS

    /// Every SMS sent, oldest first.
    public var sentSMS: [SimulatedSMS] {
        state.withLock { $0.sentSMS }
    }

    /// The last SMS sent, if any.
    public var lastSMS: SimulatedSMS? {
        state.withLock { $0.sentSMS.last }
    }

    // MARK: - Runtime changes

    /// Appends a fault for an endpoint, after any still pending.
    public func inject(_ fault: Fault, into endpoint: Endpoint) {
        transaction(notStored: ()) { $0.faults?.left[endpoint, default: []].append(fault) }
    }

    /// Removes every pending fault.
    public func removeAllFaults() {
        transaction(notStored: ()) { $0.faults?.left = [:] }
    }

    /// Signs the session of `token` out, as the person's other device does before the push
    /// saying so reaches this one (``AppEvent/signedOutElsewhere``); the same as its sign-out
    /// request, counted like one.
    ///
    /// - Parameter token: The access token whose session ends.
    public func revoke(_ token: AuthToken) {
        let request = HTTPRequest(
            method: .post, path: Endpoint.signOut.route.path,
            headers: ["Authorization": "Bearer \(token.revealed)", "Content-Type": "application/json"],
            body: Data("{}".utf8))
        _ = transaction(notStored: Self.notStoredResponse) { handle(request, state: &$0) }
    }

    /// Publishes the next terms version (`2` after `1`), as ``Fault/termsChanged(times:)`` does:
    /// for a tool that changes the terms of a running simulator without choosing the text.
    public func publishNextTerms() {
        transaction(notStored: ()) { $0.publishNextTerms() }
    }

    /// Publishes new terms, as a backend does when the lawyers change them; sessions that accepted
    /// an older version must accept again.
    public func publishTerms(version: String, text: String) {
        transaction(notStored: ()) { state in
            state.terms.version = version
            state.terms.text = text
        }
    }

    // MARK: - Stored state

    /// What a request gets when its changes could not be stored: what a server answers when its
    /// database refuses the commit, so the client's retry policy treats it as transient.
    private static var notStoredResponse: Outcome {
        Outcome(
            response: Reply.error(
                503, "unavailable", "The service could not store its state; try again.", headers: ["Retry-After": "1"]))
    }

    /// Runs `body` on the state, inside one transaction of the ``Configuration/stateStore`` when
    /// there is one: the stored state replaces this instance's before `body`, and is replaced by
    /// it after, when it changed. A stored state that cannot be used is replaced by a fresh one.
    /// When the state cannot be stored, what `body` did is undone — but for the request counts
    /// and the faults it spent, as the request did arrive — and `notStored` is the result.
    /// Problems are reported after the lock is released, once per kind.
    @discardableResult
    private func transaction<Result>(notStored: @autoclosure () -> Result, _ body: (inout State) -> Result)
        -> Result
    {
        guard let store = configuration.stateStore else { return state.withLock(body) }
        let (result, problems) = state.withLock { state -> (Result, [SimulatorStateProblem]) in
            let before = state
            var problems: [SimulatorStateProblem] = []
            var result: Result?
            do throws(SimulatorStateStoreError) {
                try store.withExclusiveAccess { stored in
                    let unchanged = restore(stored, into: &state, problems: &problems)
                    result = body(&state)
                    let bytes = state.pruned(now: configuration.clock(), configuration: configuration).encoded()
                    guard bytes != unchanged else { return nil }
                    // Undone with the rest (`before`) if it cannot be stored.
                    state.storedBytes = bytes
                    return bytes
                }
            } catch {
                let arrived = (counts: state.counts, faults: state.faults, toldAfresh: state.reportedStartedAfresh)
                state = before
                (state.counts, state.faults, state.reportedStartedAfresh) = arrived
                if !state.reportedNotStored { problems.append(.notStored(error)) }
                state.reportedNotStored = true
                return (notStored(), problems)
            }
            return (result ?? notStored(), problems)
        }
        for problem in problems { configuration.onStateProblem?(problem) }
        return result
    }

    /// Puts the stored state in place of this instance's, or a fresh one when it cannot be used.
    ///
    /// - Returns: The bytes that would store the state unchanged; `nil` when there were none or
    ///   they could not be used, so that a fresh state is written over them at once (and a
    ///   damaged state is reported once, not by every process that meets it).
    private func restore(
        _ stored: Swift.Result<Data?, SimulatorStateStoreError>, into state: inout State,
        problems: inout [SimulatorStateProblem]
    ) -> Data? {
        do throws(State.Unusable) {
            let bytes = try stored.mapError { State.Unusable(reason: "could not be read (\($0))") }.get()
            // The bytes this instance last read or wrote: its state is already what they hold
            // (but for entries they dropped as expired, which answer as absent ones do).
            guard bytes == nil || bytes != state.storedBytes else { return bytes }
            state.restore(try bytes.map(State.decode), configuration: configuration)
            state.storedBytes = bytes
            return bytes
        } catch {
            state.restore(nil, configuration: configuration)
            state.storedBytes = nil
            if !state.reportedStartedAfresh { problems.append(.startedAfresh(reason: error.reason)) }
            state.reportedStartedAfresh = true
            return nil
        }
    }
}
