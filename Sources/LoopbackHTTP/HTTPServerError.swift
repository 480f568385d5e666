#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an ``HTTPServer`` could not start listening, in a sentence a person can act on.
///
/// Starting is the only thing that can fail: once the server listens, every problem with a
/// request is answered on that request's connection (a status, or a closed connection), never
/// thrown, so one bad client cannot stop the server.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host is not an IP address (or `localhost`): the server binds literals only, so what it
    /// listens on is exactly what the caller wrote, never what a name happens to resolve to.
    case invalidHost(String)
    /// Another socket already listens on the port.
    case addressInUse(host: String, port: UInt16)
    /// The system refused the port, usually one below 1024 without privileges.
    case permissionDenied(host: String, port: UInt16)
    /// No network interface of this machine has the address.
    case addressNotAvailable(host: String)
    /// A socket call failed for another reason; `code` is its `errno`.
    case systemCall(String, code: Int32)

    /// The sentence shown to a person.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            "'\(host)' is not an IP address to listen on (use e.g. 127.0.0.1, ::1 or 0.0.0.0)"
        case .addressInUse(let host, let port):
            "\(Self.endpoint(host, port)) is already in use by another program; choose another port, or port 0 for a free one"
        case .permissionDenied(let host, let port):
            "this user may not listen on \(Self.endpoint(host, port)) (ports below 1024 need privileges); choose another port"
        case .addressNotAvailable(let host):
            "no network interface of this machine has the address \(host)"
        case .systemCall(let call, let code):
            "\(call)() failed: \(String(cString: strerror(code)))"
        }
    }

    /// `127.0.0.1:8080` or `[::1]:8080`.
    static func endpoint(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
