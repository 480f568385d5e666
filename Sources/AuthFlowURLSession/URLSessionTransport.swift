public import AuthFlow
public import Foundation
public import Operations

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An `HTTPTransport` for real servers, over `URLSession` (FoundationNetworking on Linux): the
/// transport for `https://`. For `http://`, AuthFlow's `PlainHTTPTransport` is the one that can
/// promise never to send a request twice by itself.
///
/// A library of its own so that a program which speaks plain HTTP links no FoundationNetworking:
/// on Linux that module loads libcurl and its TLS, Kerberos, LDAP and SSH libraries at every
/// start of the program (Docs/Benchmarks.md, `opctl --version`).
///
/// Request paths are resolved against ``baseURL``.
///
/// - A request with side effects (a `POST`) goes out on a session, and so a connection, of its
///   own: libcurl sends a request again by itself only when a connection it *reused* closes
///   before any answer (``PlainHTTPTransport`` says how), and on a new one reports the lost
///   answer at once (tested over a socket on Linux), so the step's retry repeats the request
///   whole. This leans on how libcurl decides, which no API promises: the price of TLS without
///   a dependency. `GET`s share one session, kept alive: sent again, a read does no harm.
///
/// - Timeouts: each request's `HTTPRequest.timeout` becomes the `URLRequest` timeout, and the
///   session's request and resource timeouts are set to the transport's `timeout` as well:
///   FoundationNetworking applies the session's values (60 s and 7 days by default) whatever the
///   request says. Both are rounded up to whole seconds (see `wholeSeconds`).
/// - Cancellation: firing the request's token cancels its `URLSessionTask`, which closes the
///   connection at once, so the server sees the client leave.
/// - Redirects are refused: a 3xx is delivered as it is and the client reports an unexpected
///   status, because following a `301` would turn a `POST` into a `GET`.
/// - A body cut off after the head arrived is delivered as far as it came, with the head's
///   `Content-Length`, so the client's validator can say "the body ended after 12 of 40 bytes"
///   instead of a network error number; other `URLError`s become `TransportError` cases with a
///   reason in plain words.
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
    ///   - completion: The response (a 3xx included, never followed; a body cut off after its head
    ///     as far as it came), `TransportError.timeout` when `URLSession` timed out,
    ///     `TransportError.cancelled` after `cancellation` fired, `TransportError.connectionLost`
    ///     when the connection broke mid-exchange, `TransportError.invalidResponse(reason:)` when
    ///     what came back was not readable HTTP, or `TransportError.unreachable(reason:)` for any
    ///     other network failure.
    public func send(
        _ request: HTTPRequest, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
    ) {
        guard let url = URL(string: baseURL.absoluteString.replacing(/\/$/, with: "") + request.path) else {
            completion(.failure(.unreachable(reason: "invalid URL path")))
            return
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: Self.wholeSeconds(request.timeout))
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers.fields { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let registration = LockedState<CancellationRegistration?>(nil)
        let owner = request.method == .get ? owner : SessionOwner(configuration: owner.configuration)
        let task = owner.session.dataTask(with: urlRequest)
        owner.exchanges.begin(task.taskIdentifier) { result in
            registration.withLock { $0 }?.cancel()
            completion(result)
            // A session of one request lives until its answer (and is then invalidated).
            withExtendedLifetime(owner) {}
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

    /// What a finished task delivers: the response, the part of a body that broke off (for the
    /// client to measure against its `Content-Length`), or why there is no response.
    fileprivate static func result(response: HTTPURLResponse?, body: Data, error: (any Error)?)
        -> Result<HTTPResponse, TransportError>
    {
        guard let error else {
            guard let response else { return .failure(.invalidResponse(reason: "the answer was not HTTP")) }
            return .success(Self.response(response, body: body))
        }
        let failure = transportError(error)
        // Nothing at all came back (libcurl's "empty reply", Darwin's lost connection): the server
        // read the request and closed, so it may have acted — a lost answer, not a bad one.
        if response == nil, body.isEmpty, (error as? URLError)?.code == .badServerResponse {
            return .failure(.connectionLost)
        }
        guard let response, let code = (error as? URLError)?.code, brokeOff.contains(code) else {
            return .failure(failure)
        }
        let partial = Self.response(response, body: body)
        // A compressed body is measured decoded against an encoded length: nothing to compare,
        // and the answer may have been acted on — a lost connection, not a malformed answer.
        if let encoding = partial.headers["Content-Encoding"], encoding.lowercased() != "identity" {
            return .failure(.connectionLost)
        }
        guard let length = partial.headers["Content-Length"].flatMap({ Int($0) }), body.count < length else {
            return .failure(.connectionLost)
        }
        return .success(partial)
    }

    /// The errors a connection that ended mid-body gives: FoundationNetworking reports libcurl's
    /// "partial file" as `unknown` (-1), Darwin as a lost connection.
    private static let brokeOff: Set<URLError.Code> = [
        .networkConnectionLost, .unknown, .cannotParseResponse, .badServerResponse,
    ]

    private static func response(_ http: HTTPURLResponse, body: Data) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: body)
    }

    /// `URLError` codes in the words a person can read; the number only for a code not named here.
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
        case .badURL, .unsupportedURL: return .unreachable(reason: "invalid URL")
        case .unknown: return .unreachable(reason: "an unknown network failure")
        case .httpTooManyRedirects: return .invalidResponse(reason: "the server redirected too many times")
        case .cannotParseResponse, .badServerResponse: return .invalidResponse(reason: "the answer was not valid HTTP")
        case .cannotDecodeContentData, .cannotDecodeRawData:
            return .invalidResponse(reason: "the answer's content encoding could not be decoded")
        default: return .unreachable(reason: "network error \(urlError.code.rawValue)")
        }
    }
}

/// Owns the transport's session and its delegate: a `URLSession` keeps its delegate alive until
/// invalidated, so the session is invalidated when the last copy of the transport goes away.
private final class SessionOwner: Sendable {
    let session: URLSession
    let exchanges = Exchanges()
    /// The configuration the session was made with, for the sessions of one request each.
    let configuration: URLSessionConfiguration

    init(configuration: URLSessionConfiguration) {
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}

/// The session's delegate: collects each task's body as it arrives, so a body that breaks off is
/// still there to measure, refuses every redirect, so the 3xx itself completes the task, and
/// delivers each task's result once.
private final class Exchanges: NSObject, URLSessionDataDelegate, Sendable {
    private struct Exchange {
        var body = Data()
        let completion: @Sendable (Result<HTTPResponse, TransportError>) -> Void
    }
    private let pending = LockedState<[Int: Exchange]>([:])

    /// Registers a task before it resumes.
    func begin(_ task: Int, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        pending.withLock { $0[task] = Exchange(completion: completion) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = task.response as? HTTPURLResponse
        exchange.completion(URLSessionTransport.result(response: response, body: exchange.body, error: error))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
