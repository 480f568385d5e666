import Foundation
import Operations
import Testing

@testable import OperationsJournal

/// The journal writes a step's value with its own walk (``ValueJSON``), and reads it back with
/// `JSONDecoder`, which expects what `JSONEncoder` writes: every kind of value a conformance can
/// write comes back equal, and reads as the same JSON as `JSONEncoder`'s.
struct ValueJSONTests {
    enum Kind: String, Codable, Equatable { case card, wallet }
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case none
    }
    struct Empty: Codable, Equatable {}
    /// Asks for no container at all.
    struct Silent: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct Everything: Codable, Equatable {
        var text = "quote \" backslash \\ newline \n tab \t bell \u{7} slash / é 💳"
        var flag = false
        var int = -42
        var int8: Int8 = -8
        var int16: Int16 = 16
        var int32: Int32 = -32
        var int64 = Int64.min
        var uint = UInt.max
        var uint8: UInt8 = 255
        var uint16: UInt16 = 16
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var double = 0.1
        var wholeDouble = 2.0
        var tiny = 1e-300
        var float: Float = 0.1
        var decimal = Decimal(string: "12.345")!
        var data = Data([0, 1, 2, 250, 255])
        var url = URL(string: "https://example.com/a?b=c")!
        var date = Date(timeIntervalSinceReferenceDate: 12.5)
        var optional: String? = nil
        var present: Int? = 7
        var list = [[1, 2], [], [3]]
        var byName = ["b": 2, "a": 1]
        var byNumber = [3: "three", 1: "one"]
        var kind = Kind.wallet
        var shapes: [Shape] = [.circle(radius: 1.5), .none]
        var empty = Empty()
        var nested: [String: [String: Bool]] = ["x": ["y": true]]
    }

    @Test func everyKindOfValueReadsBackEqualAndAsJSONEncoderWritesIt() throws {
        let value = Everything()
        let written = try ValueJSON.write(value, sealer: nil)
        #expect(try JSONDecoder().decode(Everything.self, from: Data(written.json)) == value)
        let ours = try #require(ComparableJSON.Decoded.data(Data(written.json)))
        let theirs = try #require(ComparableJSON.Decoded.data(try JSONEncoder().encode(value)))
        #expect(ours == theirs)
    }

    /// A conformance may hold two containers at once and fill them in turn, as `JSONEncoder`
    /// allows; a class writes its superclass under `super`.
    final class Child: Base {
        override func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var first = outer.nestedUnkeyedContainer(forKey: .first)
            var second = outer.nestedContainer(keyedBy: Keys.self, forKey: .second)
            try first.encode(1)
            try second.encode("b", forKey: .first)
            try first.encode(2)
            try super.encode(to: outer.superEncoder())
        }
    }
    class Base: Encodable {
        enum Keys: CodingKey { case first, second, base }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(true, forKey: .base)
        }
    }

    @Test func containersFilledInTurnAndASuperclassAreWrittenWhole() throws {
        let written = try ValueJSON.write(Child(), sealer: nil)
        let ours = try #require(ComparableJSON.Decoded.data(Data(written.json)))
        let theirs = try #require(ComparableJSON.Decoded.data(try JSONEncoder().encode(Child())))
        #expect(ours == theirs)
        #expect(
            String(decoding: written.json, as: UTF8.self)
                == #"{"first":[1,2],"second":{"first":"b"},"super":{"base":true}}"#)
    }

    @Test func whatJSONCannotHoldThrowsAsJSONEncoderDoes() {
        #expect(throws: EncodingError.self) { try ValueJSON.write([Double.nan], sealer: nil) }
        #expect(throws: EncodingError.self) { try ValueJSON.write(["x": Float.infinity], sealer: nil) }
        #expect(throws: EncodingError.self) { try ValueJSON.write(Silent(), sealer: nil) }
        #expect((try? JSONEncoder().encode(Silent())) == nil)
    }

    @Test func aTopLevelLeafIsAFragment() throws {
        #expect(String(decoding: try ValueJSON.write(Kind.card, sealer: nil).json, as: UTF8.self) == #""card""#)
        #expect(String(decoding: try ValueJSON.write(2.0, sealer: nil).json, as: UTF8.self) == "2")
    }

    /// Twenty keys, then two of them again: past the keys it looks through one by one, a key
    /// written again still keeps its place and takes the new value.
    struct ManyKeys: Encodable {
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for index in 0..<20 { try container.encode(index, forKey: Key(stringValue: "k\(index)")) }
            try container.encode(-3, forKey: Key(stringValue: "k3"))
            try container.encode(-18, forKey: Key(stringValue: "k18"))
        }
    }

    @Test func aKeyWrittenAgainAmongManyIsWrittenOnceWithItsLastValue() throws {
        let text = String(decoding: try ValueJSON.write(ManyKeys(), sealer: nil).json, as: UTF8.self)
        #expect(text.components(separatedBy: #""k18":"#).count == 2, "\(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int])
        #expect(object.count == 20)
        #expect(object["k3"] == -3 && object["k18"] == -18 && object["k19"] == 19)
        #expect(text.hasPrefix(#"{"k0":0,"k1":1,"k10":10,"k11":11,"#))
    }
}
