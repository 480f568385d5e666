import Foundation
import OperationsRunner
import Testing

@testable import opctl

/// `opctl run sign-out` after a sign-in, in this process: the saved token is revoked and deleted,
/// a second sign-out has nothing to do, and a backend that does not confirm leaves the token.
/// Serialized: a run changes how this process handles SIGINT while it lasts.
@Suite(.serialized)
struct SignOutEndToEndTests {
    private static let signIn = ["run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code", "123456"]

    @Test func signInThenSignOutThenSignOutAgain() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl(stateDirectory: directory)
        let tokenFile = SignInServices.tokenFile(in: directory)

        let signedIn = opctl.run(Self.signIn)
        #expect(signedIn.status == 0, "\(signedIn)")
        let saved = try String(contentsOf: tokenFile, encoding: .utf8)

        let first = opctl.run("run", "sign-out")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "Signed out.\n", "\(first)")
        #expect(first.stderr.contains("SignOutOp: attempt 1 succeeded"), "\(first)")
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
        #expect(!(first.stdout + first.stderr).contains(saved.prefix(40)), "the token file's content leaked")

        let again = opctl.run("run", "sign-out")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "Not signed in; nothing to do.\n", "\(again)")
    }

    @Test func anUnconfirmedSignOutKeepsTheTokenAndSaysHowToRetry() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl(stateDirectory: directory)
        let tokenFile = SignInServices.tokenFile(in: directory)
        #expect(opctl.run(Self.signIn).status == 0)

        let failed = opctl.run("run", "sign-out", "--backend", "sim:?fail=sign-out:3")

        #expect(failed.status == ExitStatus.failure, "\(failed)")
        #expect(
            failed.stderr.contains("SignOutOp failed after 3 attempts: The server had a problem (status 503)"),
            "\(failed)")
        #expect(failed.stderr.contains("Your saved sign-in was kept"), "\(failed)")
        #expect(failed.stderr.contains("to rerun: opctl rerun "), "\(failed)")
        #expect(FileManager.default.fileExists(atPath: tokenFile.path), "deleted before the backend confirmed")

        let retried = opctl.run("run", "sign-out")
        #expect(retried.status == 0, "\(retried)")
        #expect(retried.stdout == "Signed out.\n", "\(retried)")
    }

    private static func stateDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("opctl-signout-\(UUID().uuidString)")
    }
}
