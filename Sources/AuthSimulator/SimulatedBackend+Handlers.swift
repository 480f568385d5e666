import AuthFlow
import Foundation

/// The backend's side of the contract. It deliberately does not reuse the client's wire-format
/// types: it is written from `Docs/HTTP-API.md`, so a client that drifts from the document fails
/// against it.
extension SimulatedBackend {
    func handle(_ request: HTTPRequest, state: inout State) -> Outcome {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        guard let endpoint = Endpoint.allCases.first(where: { $0.route.path == path }) else {
            return Outcome(response: Reply.error(404, "not_found", "No such endpoint."))
        }
        guard endpoint.route.method == request.method else {
            return Outcome(response: Reply.error(405, "method_not_allowed", "Use \(endpoint.route.method.rawValue)."))
        }
        state.counts[endpoint, default: 0] += 1
        let fault = state.takeFault(for: endpoint)
        switch fault {
        case .hang: return Outcome(response: nil)
        case .unavailable:
            return Outcome(
                response: Reply.error(
                    503, "unavailable", "The service is temporarily unavailable.", headers: ["Retry-After": "1"]))
        case .malformedBody:
            return Outcome(
                response: HTTPResponse(
                    status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"phoneToken": "#.utf8)))
        case .status(let status, _):
            return Outcome(response: Reply.error(status, "injected_fault", "A fault injected by the simulator."))
        case .termsChanged:
            state.publishNextTerms()
        case .lostResponse, nil:
            break
        }
        let now = configuration.clock()
        var outcome: Outcome
        switch keyedRequest(request, endpoint: endpoint, state: &state, now: now) {
        case .answered(let response):
            outcome = Outcome(response: response)
        case .unkeyed:
            state.actions[endpoint, default: 0] += 1
            outcome = act(endpoint, request, state: &state, now: now)
        case .first(let id, let fingerprint):
            state.actions[endpoint, default: 0] += 1
            outcome = act(endpoint, request, state: &state, now: now)
            if let response = outcome.response {
                keep(response, as: id, fingerprint: fingerprint, state: &state, now: now)
            }
        }
        if case .lostResponse = fault { outcome.lost = true }
        return outcome
    }

    /// The endpoint's answer; a bearer token refused by a handler is the `401` it answers.
    private func act(_ endpoint: Endpoint, _ request: HTTPRequest, state: inout State, now: Date) -> Outcome {
        do throws(SimulatorToken.Rejection) {
            switch endpoint {
            case .phone: return Outcome(response: submitPhone(request, state: &state, now: now))
            case .terms: return Outcome(response: try terms(request, state: state, now: now))
            case .termsAccept: return Outcome(response: try acceptTerms(request, state: &state, now: now))
            case .codeSend: return try sendCode(request, state: &state, now: now)
            case .codeVerify: return Outcome(response: try verifyCode(request, state: &state, now: now))
            case .session: return Outcome(response: try session(request, state: &state, now: now))
            case .signOut: return Outcome(response: signOut(request, state: &state, now: now))
            }
        } catch {
            return Outcome(response: error.response)
        }
    }

    // MARK: - Endpoints

    private func submitPhone(_ request: HTTPRequest, state: inout State, now: Date) -> HTTPResponse {
        struct Body: Decodable { let phone: String }
        guard let body = Reply.decode(Body.self, request) else { return Reply.invalidRequest("a “phone” string") }
        guard let phone = try? PhoneNumber(parsing: body.phone, convention: nil) else {
            return Reply.error(400, "invalid_phone", "The phone number must be in E.164 form, e.g. +79991234567.")
        }
        guard !configuration.rejectedNumbers.contains(phone.e164) else {
            return Reply.error(400, "invalid_phone", "This number is not served.")
        }
        if let locked = lockResponse(phone.e164, state: &state, now: now) { return locked }
        // A person who already accepted the current terms is not asked again; the attempt's
        // token carries the acceptance, as after accepting in this attempt.
        let alreadyAccepted = state.acceptedByPerson[phone.e164].flatMap { $0 == state.terms.version ? $0 : nil }
        let phoneToken = issue(.phone, to: phone.e164, terms: alreadyAccepted, state: &state, now: now)
        struct Answer: Encodable {
            let phoneToken: String
            let termsRequired: Bool
            let codeLength: Int
        }
        return Reply.json(
            Answer(
                phoneToken: phoneToken, termsRequired: configuration.termsRequired && alreadyAccepted == nil,
                codeLength: configuration.smsCode.count))
    }

    private func terms(_ request: HTTPRequest, state: State, now: Date) throws(SimulatorToken.Rejection)
        -> HTTPResponse
    {
        _ = try bearer(request, kind: .phone, now: now)
        struct Answer: Encodable {
            let version: String
            let text: String
        }
        return Reply.json(Answer(version: state.terms.version, text: state.terms.text))
    }

    private func acceptTerms(_ request: HTTPRequest, state: inout State, now: Date) throws(SimulatorToken.Rejection)
        -> HTTPResponse
    {
        let claims = try bearer(request, kind: .phone, now: now)
        struct Body: Decodable { let version: String }
        guard let body = Reply.decode(Body.self, request) else { return Reply.invalidRequest("a “version” string") }
        guard body.version == state.terms.version else {
            return Reply.error(
                409, "terms_outdated", "These terms are not the current version.",
                extra: .init(currentVersion: state.terms.version))
        }
        state.acceptedByAttempt[claims.jti] = AttemptTerms(
            version: body.version, expiresAt: Date(timeIntervalSince1970: TimeInterval(claims.exp)))
        state.acceptedByPerson[claims.sub] = body.version
        var accepted = claims
        accepted.terms = body.version
        struct Answer: Encodable {
            let acceptedVersion: String
            let phoneToken: String
            let accessToken: String?
            let expiresIn: Int?
        }
        let accessToken =
            claims.reaccept == true ? issue(.access, to: claims.sub, terms: body.version, state: &state, now: now) : nil
        return Reply.json(
            Answer(
                acceptedVersion: body.version, phoneToken: SimulatorToken.sign(accepted, key: configuration.signingKey),
                accessToken: accessToken, expiresIn: accessToken == nil ? nil : Int(configuration.accessTokenLifetime)))
    }

    private func sendCode(_ request: HTTPRequest, state: inout State, now: Date) throws(SimulatorToken.Rejection)
        -> Outcome
    {
        let claims = try bearer(request, kind: .phone, now: now)
        if configuration.termsRequired, acceptedVersion(claims, state) != state.terms.version {
            return Outcome(
                response: Reply.error(
                    409, "terms_not_accepted", "Accept the current terms of use first.",
                    extra: .init(currentVersion: state.terms.version)))
        }
        if let locked = lockResponse(claims.sub, state: &state, now: now) { return Outcome(response: locked) }
        if let pending = state.codes[claims.jti] {
            let wait = pending.sentAt.addingTimeInterval(configuration.resendInterval).timeIntervalSince(now)
            if wait > 0 {
                let seconds = Int(wait.rounded(.up))
                return Outcome(
                    response: Reply.error(
                        429, "rate_limited", "A code was sent recently; wait before asking again.",
                        extra: .init(retryAfter: seconds), headers: ["Retry-After": String(seconds)]))
            }
        }
        state.codes[claims.jti] = PendingCode(code: configuration.smsCode, sentAt: now)
        // The configured code is trusted to be digits; a bad one still goes out so a test sees it.
        let code = (try? SMSCode(configuration.smsCode, length: configuration.smsCode.count))
        var sms: SimulatedSMS?
        if let code, let phone = try? PhoneNumber(parsing: claims.sub, convention: nil) {
            let sent = SimulatedSMS(phone: phone, code: code, sentAt: now)
            state.sentSMS.append(sent)
            sms = sent
        }
        struct Answer: Encodable {
            let resendAfter: Int
            let codeLength: Int
        }
        return Outcome(
            response: Reply.json(
                Answer(resendAfter: Int(configuration.resendInterval), codeLength: configuration.smsCode.count)),
            sms: sms)
    }

    private func verifyCode(_ request: HTTPRequest, state: inout State, now: Date) throws(SimulatorToken.Rejection)
        -> HTTPResponse
    {
        let claims = try bearer(request, kind: .phone, now: now)
        struct Body: Decodable { let code: String }
        guard let body = Reply.decode(Body.self, request) else { return Reply.invalidRequest("a “code” string") }
        if let locked = lockResponse(claims.sub, state: &state, now: now) { return locked }
        guard let pending = state.codes[claims.jti],
            now < pending.sentAt.addingTimeInterval(configuration.codeLifetime)
        else {
            state.codes[claims.jti] = nil
            return Reply.error(410, "code_expired", "The code has expired or was never sent; request a new one.")
        }
        guard body.code == pending.code else {
            let left = state.attemptsLeft[claims.sub, default: configuration.attemptsBeforeLock] - 1
            if left <= 0 {
                state.attemptsLeft[claims.sub] = nil
                state.codes[claims.jti] = nil
                state.lockedUntil[claims.sub] = now.addingTimeInterval(configuration.lockDuration)
                return locked(seconds: configuration.lockDuration)
            }
            state.attemptsLeft[claims.sub] = left
            return Reply.error(400, "invalid_code", "The code is wrong.", extra: .init(attemptsLeft: left))
        }
        state.codes[claims.jti] = nil
        state.attemptsLeft[claims.sub] = nil
        let terms = configuration.termsRequired ? acceptedVersion(claims, state) : nil
        struct Answer: Encodable {
            let accessToken: String
            let tokenType: String
            let expiresIn: Int
        }
        return Reply.json(
            Answer(
                accessToken: issue(.access, to: claims.sub, terms: terms, state: &state, now: now),
                tokenType: "Bearer", expiresIn: Int(configuration.accessTokenLifetime)))
    }

    private func session(_ request: HTTPRequest, state: inout State, now: Date) throws(SimulatorToken.Rejection)
        -> HTTPResponse
    {
        let claims = try bearer(request, kind: .access, now: now)
        guard state.revokedSessions[claims.jti] == nil else {
            return Reply.error(
                401, "unauthorized", "This session was signed out.", headers: ["WWW-Authenticate": "Bearer"])
        }
        let accepted = claims.terms ?? state.acceptedByAttempt[claims.jti]?.version
        let phoneToken =
            configuration.termsRequired && accepted != state.terms.version
            ? issue(.phone, to: claims.sub, reaccept: true, state: &state, now: now) : nil
        struct Answer: Encodable {
            let phone: String
            let termsVersion: String
            let acceptedTermsVersion: String?
            let phoneToken: String?
        }
        return Reply.json(
            Answer(
                phone: claims.sub, termsVersion: state.terms.version, acceptedTermsVersion: accepted,
                phoneToken: phoneToken))
    }

    /// Revokes an access token. Idempotent, as the contract says: a token that is already
    /// revoked, expired, of another kind or not one of ours signs nobody in, so it is "signed out"
    /// too and the answer is the same `200`. Only a request without a bearer token is refused.
    private func signOut(_ request: HTTPRequest, state: inout State, now: Date) -> HTTPResponse {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer "), header.count > 7 else {
            return SimulatorToken.Rejection.malformed.response
        }
        if let claims = try? bearer(request, kind: .access, now: now) {
            state.revokedSessions[claims.jti] = Date(timeIntervalSince1970: TimeInterval(claims.exp))
        }
        return Reply.json([String: String]())
    }

    // MARK: - Helpers

    private func bearer(_ request: HTTPRequest, kind: SimulatorToken.Claims.Kind, now: Date)
        throws(SimulatorToken.Rejection) -> SimulatorToken.Claims
    {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else { throw .malformed }
        return try SimulatorToken.verify(
            String(header.dropFirst(7)), key: configuration.signingKey, kind: kind, now: now)
    }

    private func acceptedVersion(_ claims: SimulatorToken.Claims, _ state: State) -> String? {
        state.acceptedByAttempt[claims.jti]?.version ?? claims.terms
    }

    /// A signed token of `kind` for `phone`, living the configured lifetime of its kind.
    private func issue(
        _ kind: SimulatorToken.Claims.Kind, to phone: String, terms: String? = nil, reaccept: Bool? = nil,
        state: inout State, now: Date
    ) -> String {
        let lifetime = kind == .phone ? configuration.phoneTokenLifetime : configuration.accessTokenLifetime
        let claims = SimulatorToken.Claims(
            sub: phone, kind: kind, exp: Int(now.addingTimeInterval(lifetime).timeIntervalSince1970),
            jti: state.nextTokenID(instance: configuration.instanceID), terms: terms, reaccept: reaccept)
        return SimulatorToken.sign(claims, key: configuration.signingKey)
    }

    private func lockResponse(_ phone: String, state: inout State, now: Date) -> HTTPResponse? {
        guard let until = state.lockedUntil[phone] else { return nil }
        guard now < until else {
            state.lockedUntil[phone] = nil
            return nil
        }
        return locked(seconds: until.timeIntervalSince(now))
    }

    private func locked(seconds: TimeInterval) -> HTTPResponse {
        let whole = Int(seconds.rounded(.up))
        return Reply.error(
            423, "locked", "Too many wrong codes; the number is locked.", extra: .init(retryAfter: whole),
            headers: ["Retry-After": String(whole)])
    }
}
