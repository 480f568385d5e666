import AuthFlow
import AuthFlowTesting
import Operations
import Testing

/// The shipped test double: a stub with nothing set up fails every call loudly, naming it, and
/// one set up answers what it was given, records every call and falls back to failing for the
/// rest.
struct AuthAPITestDoublesTests {
    @Test func everyUnimplementedCallReportsAndFailsNamingTheMethod() async throws {
        let reported = LockedState<[UnimplementedAuthAPI.Method]>([])
        let api = StubAuthAPI(unimplemented: { method in reported.withLock { $0.append(method) } })
        let token = PhoneToken("t")
        let errors: [AuthError?] = [
            try await api.submitPhone(Fixtures.phone).failure,
            try await api.fetchTerms(phoneToken: token).failure,
            try await api.acceptTerms(version: "1", phoneToken: token).failure,
            try await api.sendCode(phoneToken: token).failure,
            try await api.verifyCode("123456", phoneToken: token).failure,
            try await api.fetchSession(authToken: Fixtures.authToken).failure,
            try await api.signOut(authToken: Fixtures.authToken),
        ]
        #expect(reported.withLock { $0 } == UnimplementedAuthAPI.Method.allCases)
        #expect(errors == UnimplementedAuthAPI.Method.allCases.map(UnimplementedAuthAPI.error(for:)))
        #expect(
            UnimplementedAuthAPI.error(for: .sendCode)
                == .unexpectedStatus(501, code: "unimplemented AuthAPI.sendCode(phoneToken:call:completion:)"))
        #expect(errors.allSatisfy { $0?.isTransient == false }, "no retry policy repeats an unimplemented call")
    }

    @Test func aStubAnswersWhatItWasGivenAndRecordsEveryCall() async throws {
        let session = PhoneSession(phoneToken: Fixtures.phoneToken, termsRequired: false, codeLength: 6)
        let unexpected = LockedState<[UnimplementedAuthAPI.Method]>([])
        let api = StubAuthAPI(
            submitPhone: { _ in .success(session) },
            verifyCode: { code, _ in
                code == Fixtures.code ? .success(Fixtures.authToken) : .failure(.invalidCode(attemptsLeft: 2))
            }, delivery: .asynchronous, unimplemented: { method in unexpected.withLock { $0.append(method) } })

        #expect(try await api.submitPhone(Fixtures.phone) == .success(session))
        #expect(
            try await api.verifyCode("000000", phoneToken: Fixtures.phoneToken)
                == .failure(.invalidCode(attemptsLeft: 2)))
        #expect(try await api.verifyCode("123456", phoneToken: Fixtures.phoneToken) == .success(Fixtures.authToken))
        #expect(
            try await api.sendCode(phoneToken: Fixtures.phoneToken)
                == .failure(UnimplementedAuthAPI.error(for: .sendCode)))

        #expect(unexpected.withLock { $0 } == [.sendCode])
        #expect(
            api.calls == [
                .submitPhone(Fixtures.phone), .verifyCode(Fixtures.wrongCode, phoneToken: Fixtures.phoneToken),
                .verifyCode(Fixtures.code, phoneToken: Fixtures.phoneToken), .sendCode(phoneToken: Fixtures.phoneToken),
            ])
        #expect(api.callCount(.verifyCode) == 2)
        #expect(api.callCount(.fetchTerms) == 0)
    }

    @Test func anImmediateStubAnswersBeforeTheCallReturns() {
        let api = StubAuthAPI(fetchTerms: { _ in .success(Fixtures.terms) })
        let answered = Flag()
        api.fetchTerms(phoneToken: Fixtures.phoneToken, call: AuthCall()) { _ in answered.raise() }
        #expect(answered.isRaised)
    }
}
