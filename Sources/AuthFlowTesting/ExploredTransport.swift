public import AuthFlow
public import AuthSimulator
import Dispatch
public import Operations
public import OperationsTesting

/// The simulator behind a fault explorer's world: each request asks the ``FaultWorld`` for its
/// fault and gets it as a real network would give it, and each time the backend really acts on
/// a request with side effects the world counts the effect.
///
/// The backend answers on its own queue; this transport waits for that answer and hands it on
/// on the caller's thread, so a run under the explorer does all its waiting on the world's
/// scheduler and each schedule plays out the same way every time.
public final class ExploredTransport: HTTPTransport {
    private let world: FaultWorld
    private let backend: SimulatedBackend

    private static let prefix = "/v1/auth/"

    /// The endpoints whose requests act (an SMS, a verification, an acceptance), each counted
    /// as an effect when the backend acts on it. Not sign-out: revoking a revoked session
    /// changes nothing, so `SignOutOp` is idempotent and may repeat it freely.
    private static let acting: [SimulatedBackend.Endpoint] = [.termsAccept, .codeSend, .codeVerify]

    /// Creates the transport.
    ///
    /// - Parameters:
    ///   - world: The explored schedule's world.
    ///   - backend: The simulator; it outlives every process of the schedule, as a server would.
    public init(world: FaultWorld, backend: SimulatedBackend) {
        self.world = world
        self.backend = backend
    }

    /// Sends the request through the world's fault for it.
    public func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let endpoint = SimulatedBackend.Endpoint.allCases.first { $0.route.path == request.path }
        // `code/send`: the path below the API's prefix, as a schedule prints it.
        let name = endpoint.map { String($0.route.path.dropFirst(Self.prefix.count)) } ?? request.path
        let fault = world.request(name)
        switch fault {
        case .failBeforeActing?:
            return completion(.failure(.unreachable(reason: "connection refused")))
        case .serverError?:
            if let endpoint { backend.inject(.unavailable(times: 1), into: endpoint) }
        case .tooManyRequests?:
            if let endpoint { backend.inject(.status(429, times: 1), into: endpoint) }
        default:
            break
        }
        let before = endpoint.map(backend.actionCount(for:)) ?? 0
        let answer = LockedState<Result<HTTPResponse, TransportError>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        backend.send(request, cancellation: nil) { result in
            answer.withLock { $0 = result }
            answered.signal()
        }
        answered.wait()
        if let endpoint, Self.acting.contains(endpoint), backend.actionCount(for: endpoint) > before {
            world.performed(name)
        }
        if cancellation?.isCancelled == true { return completion(.failure(.cancelled)) }
        switch fault {
        case .loseAnswer?: completion(.failure(.connectionLost))
        case .timeOut?: completion(.failure(.timeout))
        default: completion(answer.withLock { $0 } ?? .failure(.connectionLost))
        }
    }
}
