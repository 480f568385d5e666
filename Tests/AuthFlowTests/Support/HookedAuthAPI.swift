import AuthFlow

/// Forwards every call to a real ``AuthAPI`` and runs `hook` with the call's name once its answer
/// arrived, before the caller sees it: the way a test makes the world change between two
/// requests of a running flow (the terms published anew, a token's lifetime run out).
struct HookedAuthAPI: AuthAPI {
    /// The calls, by the names the hook receives.
    enum Call: String, Sendable {
        case submitPhone, fetchTerms, acceptTerms, sendCode, verifyCode, fetchSession, signOut
    }

    let base: any AuthAPI
    let hook: @Sendable (Call) -> Void

    func submitPhone(
        _ phone: PhoneNumber, call: AuthCall, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        base.submitPhone(phone, call: call, completion: forward(.submitPhone, completion))
    }

    func fetchTerms(
        phoneToken: PhoneToken, call: AuthCall, completion: @escaping @Sendable (Result<TermsOfUse, AuthError>) -> Void
    ) {
        base.fetchTerms(phoneToken: phoneToken, call: call, completion: forward(.fetchTerms, completion))
    }

    func acceptTerms(
        version: String, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void
    ) {
        base.acceptTerms(
            version: version, phoneToken: phoneToken, call: call, completion: forward(.acceptTerms, completion))
    }

    func sendCode(
        phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<CodeDelivery, AuthError>) -> Void
    ) {
        base.sendCode(phoneToken: phoneToken, call: call, completion: forward(.sendCode, completion))
    }

    func verifyCode(
        _ code: SMSCode, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void
    ) {
        base.verifyCode(code, phoneToken: phoneToken, call: call, completion: forward(.verifyCode, completion))
    }

    func fetchSession(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<SessionStatus, AuthError>) -> Void
    ) {
        base.fetchSession(authToken: authToken, call: call, completion: forward(.fetchSession, completion))
    }

    func signOut(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<Void, AuthError>) -> Void
    ) {
        base.signOut(authToken: authToken, call: call, completion: forward(.signOut, completion))
    }

    private func forward<Value>(
        _ call: Call, _ completion: @escaping @Sendable (Result<Value, AuthError>) -> Void
    ) -> @Sendable (Result<Value, AuthError>) -> Void {
        let hook = hook
        return { result in
            hook(call)
            completion(result)
        }
    }
}
