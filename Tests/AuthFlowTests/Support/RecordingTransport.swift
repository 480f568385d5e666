import AuthFlow
import Foundation
import Operations

/// A transport that records every request and the cancellation token it came with, and answers
/// with a fixed response, or never (`answer: nil`) so the client's timeout or cancellation decides.
final class RecordingTransport: HTTPTransport {
    private let answer: HTTPResponse?
    private let recorded = LockedState<[(request: HTTPRequest, cancellation: CancellationToken?)]>([])

    init(answer: HTTPResponse? = nil) {
        self.answer = answer
    }

    var requests: [HTTPRequest] { recorded.withLock { $0.map(\.request) } }
    var cancellations: [CancellationToken?] { recorded.withLock { $0.map(\.cancellation) } }

    func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        recorded.withLock { $0.append((request, cancellation)) }
        guard let answer else { return }
        DispatchQueue.global().async { completion(.success(answer)) }
    }
}
