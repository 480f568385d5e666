public import Foundation
import Operations

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``HTTPTransport`` for real servers, over `URLSession` (FoundationNetworking on Linux).
///
/// Request paths are resolved against ``baseURL``; each request's ``HTTPRequest/timeout`` becomes
/// the `URLRequest` timeout. Redirects are not followed specially: whatever `URLSession` does,
/// a 3xx that reaches the client is an unexpected status.
public struct URLSessionTransport: HTTPTransport {
    /// The server's base URL, e.g. `https://auth.example.com`; paths are appended to it.
    public let baseURL: URL
    private let session: URLSession

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL.
    ///   - session: The session to use; an ephemeral one by default, so no cookies or cache
    ///     outlive the process.
    public init(baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral)) {
        self.baseURL = baseURL
        self.session = session
    }

    /// Sends a request over the network.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: The response, ``TransportError/timeout`` when `URLSession` timed out, or
    ///     ``TransportError/unreachable(reason:)`` for any other network failure.
    public func send(
        _ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            completion(.failure(.unreachable(reason: "invalid URL path")))
            return
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: request.timeout.inSeconds)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers.fields { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                completion(.failure(Self.transportError(error)))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(.unreachable(reason: "the response was not HTTP")))
                return
            }
            var headers = HTTPHeaders()
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            completion(.success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())))
        }
        task.resume()
    }

    private static func transportError(_ error: any Error) -> TransportError {
        guard let urlError = error as? URLError else { return .unreachable(reason: "network error") }
        switch urlError.code {
        case .timedOut: return .timeout
        case .cannotConnectToHost: return .unreachable(reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable(reason: "host not found")
        case .notConnectedToInternet: return .unreachable(reason: "offline")
        case .networkConnectionLost: return .unreachable(reason: "connection lost")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return .unreachable(reason: "TLS failure")
        default: return .unreachable(reason: "network error \(urlError.code.rawValue)")
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
