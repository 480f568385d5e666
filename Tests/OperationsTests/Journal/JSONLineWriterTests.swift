import Foundation
import Testing

@testable import Operations
@testable import OperationsJournal

/// The writer keeps its bytes, escaped, when it grows past its first buffer, and a writer
/// that is reused starts over.
@Suite struct JSONLineWriterTests {
    @Test func aWriterKeepsItsBytesWhenItGrows() {
        var writer = JSONLineWriter(capacity: 16)
        let text = String(repeating: "grows \"past\" its buffer\n", count: 40)
        writer.beginLine()
        writer.field("text", string: text)
        writer.endLine()
        let line = String(decoding: writer.bytes, as: UTF8.self)
        #expect(line.hasPrefix(#"{"text":"grows \"past\" its buffer\ngrows"#))
        #expect(line.hasSuffix("}\n"))
        let object = try? JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any]
        #expect(object?["text"] as? String == text)
    }

    @Test func aWriterEmptiedAndZeroedWritesAfresh() {
        var writer = JSONLineWriter(capacity: 64)
        writer.beginLine()
        writer.field("secret", string: "123456")
        writer.endLine()
        writer.overwriteWithZeros()
        writer.withBytes { bytes in #expect(bytes.allSatisfy { $0 == 0 }) }
        writer.removeAll()
        #expect(writer.isEmpty)
        writer.beginLine()
        writer.field("n", int: 7)
        writer.endLine()
        #expect(String(decoding: writer.bytes, as: UTF8.self).hasPrefix(#"{"n":7,"sum":""#))
    }
}
