import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

struct SignOutOpTests {
    private func launch(_ api: StubAuthAPI, _ storage: RecordingLocalStorage) -> LaunchReport<SignOutOutcome> {
        LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: ScriptedScreens()).makeSignOutOp(), input: ())
    }

    private func signedIn() throws -> RecordingLocalStorage {
        let storage = RecordingLocalStorage()
        try storage.saveAuthToken(Fixtures.authToken)
        return storage
    }

    @Test func revokesOnTheBackendThenDeletesTheSavedToken() throws {
        let storage = try signedIn()
        let api = StubAuthAPI(signOut: { _ in .success(()) }, unimplemented: Fixtures.unexpectedCall)

        let report = launch(api, storage)

        expectKeptContract(report)
        #expect(try report.value() == .signedOut)
        #expect(api.calls == [.signOut(authToken: Fixtures.authToken)])
        #expect(
            storage.calls.dropFirst() == [.loadAuthToken, .clearAuthToken], "the revocation comes before the delete")
        #expect(try storage.loadAuthToken() == nil)
    }

    @Test func withNothingSavedItSendsNothingAndSaysSo() throws {
        let storage = RecordingLocalStorage()
        let api = StubAuthAPI(unimplemented: Fixtures.unexpectedCall)

        let report = launch(api, storage)

        expectKeptContract(report)
        #expect(try report.value() == .notSignedIn)
        #expect(api.calls.isEmpty)
        #expect(storage.calls == [.loadAuthToken])
    }

    /// A token the backend no longer accepts signs nobody in: it is as good as revoked.
    @Test func aTokenTheBackendRejectsIsDeletedToo() throws {
        let storage = try signedIn()
        let api = StubAuthAPI(signOut: { _ in .failure(.unauthorized) }, unimplemented: Fixtures.unexpectedCall)

        let report = launch(api, storage)

        #expect(try report.value() == .signedOut)
        #expect(try storage.loadAuthToken() == nil)
    }

    /// The backend did not confirm: deleting now would leave a session that still works and that
    /// nobody can revoke, so the token stays and the failure says why.
    @Test(arguments: [
        AuthError.unreachable(reason: "connection refused"), .timeout, .connectionLost, .serverError(status: 503),
    ])
    func anUnconfirmedRevocationKeepsTheSavedToken(error: AuthError) throws {
        let storage = try signedIn()
        let api = StubAuthAPI(signOut: { _ in .failure(error) }, unimplemented: Fixtures.unexpectedCall)

        let report = launch(api, storage)

        expectKeptContract(report)
        #expect(report.error as? AuthError == error)
        #expect(!storage.calls.contains(.clearAuthToken))
        #expect(try storage.loadAuthToken() == Fixtures.authToken)
    }

    @Test func aCancelledLaunchFinishesOnceAsCancelledAndTouchesNothing() throws {
        let token = CancellationToken()
        token.cancel()
        let storage = try signedIn()
        let api = StubAuthAPI(unimplemented: Fixtures.unexpectedCall)
        let report = LaunchProbe.launch(
            Fixtures.factory(api: api, storage: storage, screens: ScriptedScreens()).makeSignOutOp(),
            context: OpContext((), cancellation: token))

        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
        #expect(api.calls.isEmpty)
        #expect(storage.calls == [.saveAuthToken(Fixtures.authToken)])
    }

    /// Revoking twice leaves the same state as once, so a resumed run relaunches it.
    @Test func isIdempotent() {
        #expect(Purity.of(SignOutOp.self) == .idempotent)
    }
}
