import Foundation
import Operations
import OperationsDiagrams
import OperationsTesting
import Testing

/// Saving and loading traces.
struct TraceJSONTests {
    @Test(arguments: TraceFixtures.all.indices)
    func roundTripIsUnchanged(fixture: Int) throws {
        let trace = TraceFixtures.all[fixture].trace()
        let data = try trace.jsonData()
        let loaded = try Trace(jsonData: data)
        #expect(loaded == trace)
        #expect(loaded.participants == trace.participants)
        #expect(try loaded.jsonData() == data, "saving a loaded trace gives the same bytes")
        #expect(try TextDiagramRenderer().render(loaded) == TextDiagramRenderer().render(trace))
    }

    @Test func jsonIsStableAndReadable() throws {
        let trace = Trace(events: [
            .declare(.keyService("AuthAPI")), .declare(.operation("Op")),
            .call(from: "Op", to: "AuthAPI", "ping"),
        ])
        let text = String(decoding: try trace.jsonData(), as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains(#""from" : "Op""#))
        #expect(text.contains(#""version" : 1"#))
    }

    @Test func notJSONIsMalformed() {
        #expect(throws: TraceError.malformedJSON("not valid JSON")) {
            try Trace(jsonData: Data("hello".utf8))
        }
    }

    @Test func foreignJSONIsMalformed() {
        #expect {
            try Trace(jsonData: Data(#"{"name": "not a trace"}"#.utf8))
        } throws: { error in
            guard case .malformedJSON(let reason) = error as? TraceError else { return false }
            return reason.contains("version")
        }
    }

    @Test func otherVersionsAreRefused() {
        #expect(throws: TraceError.unsupportedVersion(found: 7, supported: 1)) {
            try Trace(jsonData: Data(#"{"version": 7, "events": []}"#.utf8))
        }
    }

    @Test func unknownEventKindsAreNamed() {
        let json =
            #"{"version": 1, "events": [{"kind": "declare", "participant": {"id": "A", "name": "A", "kind": "keyService"}}, {"kind": "teleport"}]}"#
        #expect(throws: TraceError.unknownEventKind("teleport", event: 1)) {
            try Trace(jsonData: Data(json.utf8))
        }
    }
}
