import Foundation
import Operations
import OperationsDiagrams
import OperationsRunner
import OperationsTestSupport
import Testing

/// A trace appended as it happens, read back across sessions and after a cut.
struct FileTracerTests {
    private static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl")
    }

    /// The events a killed run leaves: launched, calling, never finished.
    private static func record(_ tracer: FileTracer) {
        tracer.record(.declare(.caller("opctl")))
        tracer.record(.declare(.operation("PhoneOp")))
        tracer.record(.declare(.keyService("AuthAPI")))
        tracer.record(.launch("PhoneOp", by: "opctl", "launch(phone)"))
        tracer.record(.call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"))
    }

    /// A disk that refuses the session's header is the tracer's error, with the system's reason;
    /// the descriptor is closed once, before the tracer exists (a tracer that failed after
    /// setting its properties closed it again from `deinit`).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aFileThatRefusesTheSessionHeaderIsTheTracersError() {
        let error = #expect(throws: TraceFileError.self) {
            try FileTracer(appendingTo: URL(fileURLWithPath: "/dev/full"))
        }
        #expect(error?.path == "/dev/full")
        #expect(error?.reason == String(cString: strerror(ENOSPC)))
    }

    @Test func eventsAreOnDiskAsRecordedOwnerOnly() throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let tracer = try FileTracer(appendingTo: url)
        Self.record(tracer)
        // No close, no flush: what a kill -9 leaves.
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(tracer.failedWrites == 0)
    }

    @Test func aCutSessionIsClosedAndDrawnCutOffInEveryFormat() throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        Self.record(try FileTracer(appendingTo: url))
        // A torn last line, as a kill in the middle of a write leaves.
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        handle.write(Data(#"{"kind":"mess"#.utf8))
        try handle.close()

        let recorded = try Trace.recorded(jsonLines: try Data(contentsOf: url))
        #expect(recorded.isCutOff)
        #expect(recorded.sessions == 1)
        try recorded.trace.validate()
        let text = try TextDiagramRenderer().render(recorded.trace)
        let plantUML = try PlantUMLRenderer().render(recorded.trace)
        let mermaid = try MermaidRenderer().render(recorded.trace)
        for diagram in [text, plantUML, mermaid] {
            #expect(diagram.contains(Trace.cutOffLabel), "\(diagram)")
        }
        if let folder = ProcessInfo.processInfo.environment["CUT_OFF_DIAGRAMS"] {
            try Data(plantUML.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("cut.puml"))
            try Data(mermaid.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("cut.mmd"))
        }
    }

    /// A run killed inside a frame its inner scenario opened (the `opt` of a conditional step
    /// inside the group of a nested scenario): each frame closes before the cut-off finish of
    /// the operation that was running when it opened, as a run that went on would have closed
    /// it, so the trace validates and draws at any depth.
    @Test func aSessionCutInsideNestedFramesClosesEachBeforeItsOpenersFinish() throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let tracer = try FileTracer(appendingTo: url)
        for participant in ["Sign", "Verify", "Terms"] { tracer.record(.declare(.operation(participant))) }
        tracer.record(.declare(.caller("opctl")))
        tracer.record(.launch("Sign", by: "opctl", "launch(phone)"))
        tracer.record(.openFrame(.group, "Verify", by: "Sign"))
        tracer.record(.launch("Verify", by: "Sign", "launch(token)"))
        tracer.record(.openFrame(.opt, "terms required", by: "Verify"))
        tracer.record(.launch("Terms", by: "Verify", "launch(token)"))

        let recorded = try Trace.recorded(jsonLines: try Data(contentsOf: url))
        #expect(recorded.isCutOff)
        try recorded.trace.validate()
        #expect(
            Array(recorded.trace.events.suffix(5)) == [
                .finish("Terms", to: "Verify", Trace.cutOffLabel), .closeFrame,
                .finish("Verify", to: "Sign", Trace.cutOffLabel), .closeFrame,
                .finish("Sign", to: "opctl", Trace.cutOffLabel),
            ])
        for depth in 1...3 {
            let text = try TextDiagramRenderer().render(recorded.trace.limited(toDepth: depth))
            #expect(text.contains(Trace.cutOffLabel), "depth \(depth): \(text)")
        }
    }

    @Test func aRerunAppendsASessionAfterTheCutOne() throws {
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        Self.record(try FileTracer(appendingTo: url))
        let rerun = try FileTracer(appendingTo: url)
        Self.record(rerun)
        rerun.record(.reply(from: "AuthAPI", to: "PhoneOp", "token"))
        rerun.record(.finish("PhoneOp", to: "opctl", "onFinish(token)"))

        let recorded = try Trace.recorded(jsonLines: try Data(contentsOf: url))
        #expect(recorded.sessions == 2)
        #expect(recorded.isCutOff)
        try recorded.trace.validate()
        let cutFinishes = recorded.trace.events.filter { $0 == .finish("PhoneOp", to: "opctl", Trace.cutOffLabel) }
        #expect(cutFinishes.count == 1)
        #expect(recorded.trace.events.last == .finish("PhoneOp", to: "opctl", "onFinish(token)"))
    }

    /// A line damaged at rest (or of an event this build does not know) is skipped: the rest
    /// of the file is drawn, and a note says where the line was.
    @Test func aDamagedLineBeforeTheLastIsSkippedAndNamedWhereItStood() throws {
        let lines = [
            #"{"session":true,"version":1}"#,
            #"{"kind":"declare","participant":{"name":"opctl","id":"opctl","kind":"caller"}}"#,
            #"{"kind":"declare","participant":{"name":"PhoneOp","id":"PhoneOp","kind":"operation"}}"#,
            #"{"kind":"launch","by":"opctl","participant":"PhoneOp","label":"launch(phone)"}"#,
            "not json",
            #"{"kind":"teleport","participant":"PhoneOp"}"#,
            #"{"kind":"finish","to":"opctl","participant":"PhoneOp","label":"onFinish(token)"}"#,
        ]
        let recorded = try Trace.recorded(jsonLines: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(recorded.damagedLines == [5, 6])
        #expect(!recorded.isCutOff)
        try recorded.trace.validate()
        #expect(
            Array(recorded.trace.events.suffix(4)) == [
                .launch("PhoneOp", by: "opctl", "launch(phone)"),
                .note(over: "PhoneOp", "trace line 5 is unreadable: skipped"),
                .note(over: "PhoneOp", "trace line 6 is unreadable: skipped"),
                .finish("PhoneOp", to: "opctl", "onFinish(token)"),
            ])
        for depth in 1...2 {
            let text = try TextDiagramRenderer().render(recorded.trace.limited(toDepth: depth))
            #expect(text.contains("trace line 5 is unreadable"), "depth \(depth): \(text)")
        }
    }
}
