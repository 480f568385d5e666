import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

struct SaveTokenOpTests {
    private func factory(_ storage: RecordingLocalStorage) -> AuthFlowFactory {
        Fixtures.factory(
            api: StubAuthAPI(unimplemented: Fixtures.unexpectedCall), storage: storage, screens: ScriptedScreens())
    }

    @Test func savesTheTokenAndReturnsIt() throws {
        let storage = RecordingLocalStorage()
        let report = LaunchProbe.launch(factory(storage).makeSaveTokenOp(), input: Fixtures.authToken)

        expectKeptContract(report)
        #expect(try report.value() == Fixtures.authToken)
        #expect(storage.calls == [.saveAuthToken(Fixtures.authToken)])
        #expect(try storage.loadAuthToken() == Fixtures.authToken)
    }

    @Test(arguments: [
        LocalStorageError.unwritable(path: "/nowhere/auth-token.json", reason: "Read-only file system"),
        .unreadable(path: "/nowhere/auth-token.json", reason: "permission denied or not a file"),
    ])
    func storageErrorsFinishTheLaunchAsTheyAre(error: LocalStorageError) {
        let storage = RecordingLocalStorage(saveError: error)
        let report = LaunchProbe.launch(factory(storage).makeSaveTokenOp(), input: Fixtures.authToken)

        expectKeptContract(report)
        #expect(report.error as? LocalStorageError == error)
        #expect(report.error?.isCancellation == false)
    }

    @Test func aCancelledLaunchFinishesOnceAsCancelledAndSavesNothing() {
        let token = CancellationToken()
        token.cancel()
        let storage = RecordingLocalStorage()
        let report = LaunchProbe.launch(
            factory(storage).makeSaveTokenOp(), context: OpContext(Fixtures.authToken, cancellation: token))

        expectKeptContract(report)
        #expect(report.error as? OpError == .cancelled)
        #expect(storage.calls.isEmpty, "the caller was told the launch was cancelled; nothing may have been saved")
    }

    /// Writing the same token twice leaves the same file, so resumption relaunches it rather
    /// than replaying a save whose file may have been deleted since.
    @Test func isIdempotent() {
        #expect(Purity.of(SaveTokenOp.self) == .idempotent)
        #expect(Purity.of(SaveTokenOp.self).relaunchesFreely)
    }
}
