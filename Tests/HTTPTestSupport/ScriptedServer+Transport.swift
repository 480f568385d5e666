package import AuthFlow
import Dispatch
import Foundation

extension ScriptedServer {
    /// A server that answers through `transport` (the simulator, say) and keeps each connection
    /// open for the next request, as most servers do: what a client that re-sends on a reused
    /// connection would meet. A request the transport fails with a lost answer (the simulator's
    /// lost-response fault: it acted) gets its connection closed without a word; any other
    /// failure is a `502`.
    ///
    /// Unlike ``RecordingServer``, it counts connections and requests left half-sent, so a test
    /// sees a copy of a request its client sent without the body.
    ///
    /// - Parameter transport: Answers each request, on the connection's thread.
    /// - Throws: ``SocketFailure`` when nothing can listen on 127.0.0.1.
    package convenience init(serving transport: any HTTPTransport) throws(SocketFailure) {
        try self.init { request, _ in
            guard let method = HTTPMethod(rawValue: request.method) else { return .answer(status: 501) }
            let forwarded = HTTPRequest(
                method: method, path: request.target, headers: HTTPHeaders(request.headers), body: Data(request.body),
                timeout: .seconds(60))
            let answered = DispatchSemaphore(value: 0)
            let outcome = OutcomeBox()
            transport.send(forwarded) { result in
                outcome.result = result
                answered.signal()
            }
            answered.wait()
            switch outcome.result {
            case .success(let response)?:
                var head = "HTTP/1.1 \(response.status) Answer\r\n"
                for (name, value) in response.headers.fields where name != "content-length" {
                    head += "\(name): \(value)\r\n"
                }
                head += "Content-Length: \(response.body.count)\r\n\r\n"
                return Reply(bytes: Array(head.utf8) + response.body, then: .readNext)
            case .failure(.connectionLost)?:
                return .closeWithoutAnswer
            default:
                return .answer(status: 502)
            }
        }
    }
}

/// The transport's answer, handed from its thread to the connection's (which waits on a
/// semaphore, so the hand-over is ordered).
private final class OutcomeBox: @unchecked Sendable {
    // @unchecked: written once before the semaphore is signalled, read after it was waited on.
    var result: Result<HTTPResponse, TransportError>?
}
