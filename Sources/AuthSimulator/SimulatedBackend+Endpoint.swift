public import AuthFlow

extension SimulatedBackend {
    /// The endpoints of the contract, by the names configuration and counters use.
    public enum Endpoint: String, Sendable, Hashable, CaseIterable, Codable {
        /// `POST /v1/auth/phone`.
        case phone
        /// `GET /v1/auth/terms`.
        case terms
        /// `POST /v1/auth/terms/accept`.
        case termsAccept = "terms.accept"
        /// `POST /v1/auth/code/send`.
        case codeSend = "code.send"
        /// `POST /v1/auth/code/verify`.
        case codeVerify = "code.verify"
        /// `GET /v1/auth/session`.
        case session
        /// `POST /v1/auth/sign-out`.
        case signOut = "sign-out"

        /// The method and path of the endpoint.
        public var route: (method: HTTPMethod, path: String) {
            switch self {
            case .phone: (.post, "/v1/auth/phone")
            case .terms: (.get, "/v1/auth/terms")
            case .termsAccept: (.post, "/v1/auth/terms/accept")
            case .codeSend: (.post, "/v1/auth/code/send")
            case .codeVerify: (.post, "/v1/auth/code/verify")
            case .session: (.get, "/v1/auth/session")
            case .signOut: (.post, "/v1/auth/sign-out")
            }
        }
    }

    /// A failure the simulator injects instead of answering an endpoint normally.
    ///
    /// Faults for one endpoint are used in order; each answers `times` requests, then the next
    /// fault (or the normal answer) takes over. A request that meets a fault is still counted.
    public enum Fault: Sendable, Hashable, Codable {
        /// `503 Service Unavailable` with `Retry-After: 1`: a transient failure.
        case unavailable(times: Int)
        /// `200 OK` with a body that is not valid JSON.
        case malformedBody(times: Int)
        /// No answer at all, so the client's timeout fires.
        case hang(times: Int)
        /// An error envelope with the given status and the code `injected_fault`.
        case status(Int, times: Int)
        /// The backend acts and answers, but the answer is lost on the way back: the client sees
        /// ``TransportError/connectionLost``. The SMS is sent, the code verified, the terms
        /// accepted — the case idempotency keys exist for.
        case lostResponse(times: Int)
        /// The terms are published anew (the next version) just before the request is handled,
        /// which then goes on normally: the terms changed while a sign-in was under way, so a
        /// request that needs the current terms is refused with `409 terms_not_accepted`.
        case termsChanged(times: Int)

        var times: Int {
            switch self {
            case .unavailable(let times), .malformedBody(let times), .hang(let times), .status(_, let times),
                .lostResponse(let times), .termsChanged(let times):
                times
            }
        }

        func decremented() -> Fault? {
            guard times > 1 else { return nil }
            switch self {
            case .unavailable: return .unavailable(times: times - 1)
            case .malformedBody: return .malformedBody(times: times - 1)
            case .hang: return .hang(times: times - 1)
            case .status(let status, _): return .status(status, times: times - 1)
            case .lostResponse: return .lostResponse(times: times - 1)
            case .termsChanged: return .termsChanged(times: times - 1)
            }
        }
    }
}
