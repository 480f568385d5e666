public import Foundation
public import Operations

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``HTTPTransport`` for real servers, over `URLSession` (FoundationNetworking on Linux).
///
/// Request paths are resolved against ``baseURL``.
///
/// - Timeouts: each request's ``HTTPRequest/timeout`` becomes the `URLRequest` timeout, and the
///   session's request and resource timeouts are set to the transport's `timeout` as well:
///   FoundationNetworking applies the session's values (60 s and 7 days by default) whatever the
///   request says. Both are rounded up to whole seconds (see `wholeSeconds`).
/// - Cancellation: firing the request's token cancels its `URLSessionTask`, which closes the
///   connection at once, so the server sees the client leave.
/// - Redirects are refused: a 3xx is delivered as it is and the client reports an unexpected
///   status, because following a `301` would turn a `POST` into a `GET`.
public struct URLSessionTransport: HTTPTransport {
    /// The server's base URL, e.g. `https://auth.example.com`; paths are appended to it.
    public let baseURL: URL
    private let owner: SessionOwner

    /// Creates a transport with a session of its own.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL.
    ///   - configuration: The session's configuration; an ephemeral one by default, so no
    ///     cookies or cache outlive the process. Its timeouts are replaced by `timeout`.
    ///   - timeout: The longest any request may wait for data and take in all.
    public init(
        baseURL: URL, configuration: URLSessionConfiguration = .ephemeral, timeout: Duration = .seconds(15)
    ) {
        self.baseURL = baseURL
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.timeoutIntervalForRequest = Self.wholeSeconds(timeout)
        configuration.timeoutIntervalForResource = Self.wholeSeconds(timeout)
        owner = SessionOwner(configuration: configuration)
    }

    /// Sends a request over the network.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - cancellation: Cancels the task, closing its connection.
    ///   - completion: The response (a 3xx included, never followed), ``TransportError/timeout``
    ///     when `URLSession` timed out, ``TransportError/cancelled`` after `cancellation` fired,
    ///     ``TransportError/connectionLost`` when the connection broke mid-exchange, or
    ///     ``TransportError/unreachable(reason:)`` for any other network failure.
    public func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            completion(.failure(.unreachable(reason: "invalid URL path")))
            return
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: Self.wholeSeconds(request.timeout))
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers.fields { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let registration = LockedState<CancellationRegistration?>(nil)
        let task = owner.session.dataTask(with: urlRequest) { data, response, error in
            registration.withLock { $0 }?.cancel()
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
        if let cancellation {
            let registered = cancellation.onCancel { task.cancel() }
            registration.withLock { $0 = registered }
        }
        task.resume()
    }

    /// A timeout in whole seconds, at least one: FoundationNetworking truncates a fraction, so
    /// 0.5 s would time out at once. The client's own timer keeps sub-second precision.
    private static func wholeSeconds(_ timeout: Duration) -> TimeInterval {
        max(1, timeout.inSeconds.rounded(.up))
    }

    private static func transportError(_ error: any Error) -> TransportError {
        guard let urlError = error as? URLError else { return .unreachable(reason: "network error") }
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        case .networkConnectionLost: return .connectionLost
        case .cannotConnectToHost: return .unreachable(reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable(reason: "host not found")
        case .notConnectedToInternet: return .unreachable(reason: "offline")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            return .unreachable(reason: "TLS failure")
        default: return .unreachable(reason: "network error \(urlError.code.rawValue)")
        }
    }
}

/// Owns the transport's session and its delegate: a `URLSession` keeps its delegate alive until
/// invalidated, so the session is invalidated when the last copy of the transport goes away.
private final class SessionOwner: Sendable {
    let session: URLSession

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// Refuses every redirect, so the 3xx itself completes the task.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
