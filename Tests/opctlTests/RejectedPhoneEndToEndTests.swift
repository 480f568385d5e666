import AuthFlow
import Foundation
import HTTPTestSupport
import OperationsRunner
import Testing

@testable import opctl

/// A number the backend rejects, in a scripted run that cannot ask again: the run ends with the
/// backend's reason and a hint that works (a rerun would keep the rejected number).
@Suite(.serialized)
struct RejectedPhoneEndToEndTests {
    @Test func aScriptedRunEndsWithTheReasonAndAHintToStartAgain() throws {
        let server = try RecordingServer { _ in
            HTTPResponse(
                status: 400, headers: ["Content-Type": "application/json"],
                body: Data(#"{"error":{"code":"invalid_phone","message":"Not a number we serve."}}"#.utf8))
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opctl-phone-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let result = InProcessOpctl(stateDirectory: directory).run(
            "run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code", "123456", "--backend",
            server.baseURL.absoluteString)

        #expect(result.status == ExitStatus.failure, "\(result)")
        #expect(result.stderr.contains("PhoneOp failed: \(AuthError.invalidPhone)"), "\(result)")
        #expect(
            result.stderr.contains("Check the number and start a new sign-in: opctl run auth --phone NUMBER"),
            "\(result)")
        #expect(!result.stderr.contains("to rerun:"), "a rerun keeps the rejected number: \(result)")
    }
}
