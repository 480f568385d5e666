import AuthFlow
import Foundation
import Operations
import Synchronization

/// A transport that answers every request with one fixed response or transport error, for the
/// error-decoding table: bodies exactly as `Docs/HTTP-API.md` shows them.
struct CannedTransport: HTTPTransport {
    let result: Result<HTTPResponse, TransportError>

    init(status: Int, headers: HTTPHeaders = [:], json: String) {
        result = .success(HTTPResponse(status: status, headers: headers, body: Data(json.utf8)))
    }

    init(failure: TransportError) {
        result = .failure(failure)
    }

    func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        let result = self.result
        DispatchQueue.global().async { completion(result) }
    }
}
