import Operations
import OperationsDiagrams
import OperationsTesting
import Testing

/// Secrets never appear in clear in any rendered form or in saved traces.
struct RedactionTests {
    @Test func secretsPrintRedacted() {
        let token = TraceFixtures.secretToken
        #expect("\(token)" == "tok…a1f3")
        #expect(String(reflecting: token) == "tok…a1f3")
        #expect("\(TraceFixtures.secretCode)" == "••••••")
        #expect("\(redactedToken: "short")" == "•••…")
        var dumped = ""
        dump(token, to: &dumped)
        #expect(!dumped.contains(token.rawValue))
    }

    @Test func noOutputHoldsASecret() throws {
        let trace = TraceFixtures.redactedSecrets
        var outputs = [
            try PlantUMLRenderer().render(trace), try MermaidRenderer().render(trace),
            String(decoding: try trace.jsonData(), as: UTF8.self),
        ]
        for width in [80, 100] {
            for charset in [DiagramCharset.unicode, .ascii] {
                outputs.append(try TextDiagramRenderer(maxWidth: width, charset: charset).render(trace))
            }
        }
        for output in outputs {
            #expect(!output.contains(TraceFixtures.secretToken.rawValue))
            #expect(!output.contains(TraceFixtures.secretCode.rawValue))
            #expect(!output.contains("9f8e7d6c5b4a3210"))
        }
        #expect(outputs[0].contains("tok…a1f3"))
    }
}
