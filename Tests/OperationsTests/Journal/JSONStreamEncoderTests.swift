import Foundation
import Testing

@testable import Operations
@testable import OperationsJournal

/// The stream encoder writes exactly the bytes the tree of ``JSONValueEncoder`` writes, finds the
/// same secrets, and leaves to the tree every value it cannot write in order.
@Suite struct JSONStreamEncoderTests {
    typealias Everything = JSONValueEncoderTests.Everything
    typealias Inner = JSONValueEncoderTests.Inner
    typealias Choice = JSONValueEncoderTests.Choice

    struct Empty: Codable, Sendable {}

    /// Encodes nothing at all: `{}` as a member, nothing the journal can write at the top.
    struct Silent: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct HoldsSilent: Encodable, Sendable {
        let silent = Silent()
        let after = 1
    }

    /// Keys that need escaping, and every integer width at its extremes.
    struct Odd: Encodable, Sendable {
        enum CodingKeys: String, CodingKey {
            case quoted = "a \"key\""
            case control = "tab\there"
            case plain
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode([Int.min, Int.max, 0, 9, 10, -1], forKey: .quoted)
            var nested = container.nestedUnkeyedContainer(forKey: .control)
            try nested.encode(Int8.min)
            try nested.encode(Int16.min)
            try nested.encode(Int32.max)
            try nested.encode(Int64.min)
            try nested.encode(UInt.max)
            try nested.encode(UInt8.max)
            try nested.encode(UInt16.max)
            try nested.encode(UInt32.max)
            try nested.encode(UInt64.max)
            try nested.encodeNil()
            var inner = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .plain)
            try inner.encode(true, forKey: .plain)
            try inner.encodeNil(forKey: .quoted)
        }
    }

    /// Asks for its container twice, as a subclass and its superclass sharing one encoder do.
    struct TwoContainers: Encodable, Sendable {
        enum First: String, CodingKey { case a }
        enum Second: String, CodingKey { case b }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: First.self)
            try first.encode(1, forKey: .a)
            var second = encoder.container(keyedBy: Second.self)
            try second.encode(2, forKey: .b)
        }
    }

    /// A value through a single-value container, then a struct through one.
    struct Wrapped: Encodable, Sendable {
        let inner: Inner
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    static let written: [any Encodable & Sendable] = [
        JSONValueEncoderTests.everything, Inner(name: "n", tags: ["t"], scores: [:]), [1, 2, 3], ["a": [true]],
        Choice.pair(label: "x", flag: true), Choice.none, [Choice.one(3)], Optional<Int>.none, Optional("text"),
        Empty(), [Empty()], HoldsSilent(), Odd(), TwoContainers(),
        Wrapped(inner: Inner(name: "w", tags: [], scores: [:])),
        ["nested": ["deeper": [[1], [2, 3]]]], [[String: Int]](), "plain", 42, false,
    ]

    @Test(arguments: written)
    func writesTheBytesTheTreeWrites(value: any Encodable & Sendable) throws {
        let stream = JSONStreamEncoder()
        let outcome = stream.encode(value, confidential: false)
        let tree = try #require(JSONValueEncoder.encode(value))
        let node = try #require(tree.node)
        var writer = JSONLineWriter()
        writer.write(node)
        #expect(outcome == .written(holdsSecret: false))
        #expect(String(decoding: stream.bytes, as: UTF8.self) == String(decoding: writer.bytes, as: UTF8.self))
    }

    @Test func reusesItsBuffersFromOneValueToTheNext() {
        let stream = JSONStreamEncoder()
        #expect(
            stream.encode(Inner(name: "first", tags: ["a", "b"], scores: ["k": 1]), confidential: false) != .unsupported
        )
        #expect(stream.encode([1], confidential: false) == .written(holdsSecret: false))
        #expect(String(decoding: stream.bytes, as: UTF8.self) == "[1]")
    }

    /// Writes one key twice: the tree keeps its first place and its last value.
    struct DuplicateKey: Encodable, Sendable {
        enum CodingKeys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .a)
        }
    }

    /// Writes one key twice, spelled in two canonically equivalent ways ("é" precomposed, then
    /// "e" and a combining accent: different bytes, different lengths, one Swift string).
    struct EquivalentKeys: Encodable, Sendable {
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key(stringValue: "caf\u{E9}"))
            try container.encode(2, forKey: Key(stringValue: "cafe\u{301}"))
        }
    }

    /// Writes `names` as the keys of one object, in order.
    struct NamedKeys: Encodable, Sendable {
        let names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: EquivalentKeys.Key.self)
            for (index, name) in names.enumerated() { try container.encode(index, forKey: .init(stringValue: name)) }
        }
    }

    /// Keys compared by their bytes where that is exact (plain ASCII on both sides), and as
    /// strings wherever one side is not: the Kelvin sign is "K", "é" is "e" and an accent.
    @Test(arguments: [
        ["a", "b", "a"], ["ab", "ba", "ab"], ["K", "\u{212A}"], ["\u{212A}", "K"], ["caf\u{E9}", "x", "cafe\u{301}"],
        ["a \"q\"", "a \"q\""], ["tab\tx", "b", "tab\tx"], ["\u{E9}t\u{E9}", "\u{E9}t\u{E9}"],
    ])
    func findsAKeyWrittenTwiceHoweverItIsSpelled(names: [String]) {
        #expect(JSONStreamEncoder().encode(NamedKeys(names: names), confidential: false) == .unsupported)
    }

    @Test(arguments: [
        ["a", "b"], ["ab", "ba", "aa", "bb"], ["K", "k", "\u{212A}x"], ["caf\u{E9}", "cafe"], ["a \"q\"", "a \"r\""],
        ["\u{E9}t\u{E9}", "\u{E9}t\u{E8}", "ete"],
    ])
    func writesDistinctKeysAsTheTreeDoes(names: [String]) throws {
        let stream = JSONStreamEncoder()
        #expect(stream.encode(NamedKeys(names: names), confidential: false) == .written(holdsSecret: false))
        let tree = try #require(JSONValueEncoder.encode(NamedKeys(names: names))?.node)
        var writer = JSONLineWriter()
        writer.write(tree)
        #expect(stream.bytes == writer.bytes)
    }

    /// Writes to a nested container after its parent moved on.
    struct Interleaved: Encodable, Sendable {
        enum CodingKeys: String, CodingKey { case first, second, late }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var first = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .first)
            try container.encode("x", forKey: .second)
            try first.encode(1, forKey: .late)
        }
    }

    /// Writes two different values into one single-value container.
    struct Overwritten: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode(2)
        }
    }

    @Test func leavesToTheTreeWhatItCannotWriteInOrder() throws {
        // Not test arguments: Swift Testing encodes those with `JSONEncoder`, which traps on
        // a single-value container written twice.
        let values: [any Encodable & Sendable] = [
            JSONValueEncoderTests.Derived(), DuplicateKey(), EquivalentKeys(), Interleaved(), Overwritten(),
        ]
        for value in values {
            #expect(JSONStreamEncoder().encode(value, confidential: false) == .unsupported, "\(type(of: value))")
            #expect(JSONValueEncoder.encode(value)?.node != nil, "\(type(of: value))")
        }
    }

    @Test(arguments: [
        ["when": Date()] as any Encodable & Sendable, [1.5], [Float(2)], ["d": Decimal(1)], [Data([1])],
        [URL(string: "https://e.x")!], Silent(),
    ])
    func leavesToTheOthersWhatOnlyJSONEncoderWritesAndValuesThatWriteNothing(value: any Encodable & Sendable) {
        #expect(JSONStreamEncoder().encode(value, confidential: false) == .unsupported)
    }

    private struct Secret: Encodable, JournalConfidential {
        let raw: String
    }

    private struct Holder: Encodable {
        let name: String
        let secrets: [Secret]
    }

    @Test func findsASecretWhereTheTreeFindsIt() throws {
        let stream = JSONStreamEncoder()
        #expect(stream.encode(Secret(raw: "s"), confidential: true) == .written(holdsSecret: true))
        #expect(
            stream.encode(Holder(name: "n", secrets: [Secret(raw: "s")]), confidential: false)
                == .written(holdsSecret: true))
        let tree = try #require(JSONValueEncoder.encode(Holder(name: "n", secrets: [Secret(raw: "s")])))
        var writer = JSONLineWriter()
        writer.write(try #require(tree.node))
        #expect(tree.holdsSecret)
        #expect(stream.bytes == writer.bytes)
        #expect(stream.encode(Holder(name: "n", secrets: []), confidential: false) == .written(holdsSecret: false))
    }

    @Test func erasingOverwritesTheSecretsClearForm() {
        let stream = JSONStreamEncoder()
        _ = stream.encode(Secret(raw: "s"), confidential: true)
        stream.erase()
        #expect(stream.bytes.isEmpty)
        #expect(stream.encode([7], confidential: false) == .written(holdsSecret: false))
        #expect(stream.bytes == Array("[7]".utf8))
    }

    @Test(arguments: [
        Int.min, -10, -9, -1, 0, 1, 9, 10, 99, 100, 101, 999, 1000, 12_345, 1_735_732_800_000, Int.max,
    ])
    func writesIntegersAsTheirDescription(value: Int) {
        var writer = JSONLineWriter()
        writer.integer(value)
        #expect(writer.bytes == Array(String(value).utf8))
    }

    @Test(arguments: [UInt64.max, UInt64.max / 10, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999])
    func writesTheWidestUnsignedIntegers(value: UInt64) {
        var writer = JSONLineWriter()
        writer.integer(value)
        #expect(writer.bytes == Array(String(value).utf8))
    }

    struct PhoneRequest: Codable, Sendable {
        let phone: String
        let locale: String
        let attempt: Int
        let acceptsTerms: Bool
    }

    private struct Card: Codable, Sendable, JournalConfidential {
        let number: String
    }

    /// Keeps the plaintext readable: the bytes sealed are the value's JSON, reversed.
    private struct ReversingSealer: JournalSealer {
        func seal(_ plaintext: [UInt8]) throws -> [UInt8] { plaintext.reversed() }
        func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed.reversed() }
    }

    /// The journal writes the same value fields, byte for byte, whichever encoder wrote them.
    @Test func journalLinesCarryTheSameValueBytes() throws {
        let values: [any Sendable] = [
            PhoneRequest(phone: "+15551234567", locale: "en_US", attempt: 3, acceptsTerms: true),
            Card(number: "4242"), JSONValueEncoderTests.Derived(), ["when": Date(timeIntervalSince1970: 0)],
        ]
        let lines = try withTemporaryDirectory { directory in
            let journal = try ScenarioJournal.create(
                at: directory.appendingPathComponent("run.jsonl"), scenario: "S", sealer: ReversingSealer())
            let address = StepAddress(path: [.init(index: 1, name: "PhoneOp")])
            for value in values {
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepLaunched, scenario: "S", address: address, attempt: 1, duration: nil, value: value))
            }
            try journal.close()
            return try String(contentsOf: journal.url, encoding: .utf8).split(separator: "\n").dropFirst()
        }
        let sealedCard = Data(#"{"number":"4242"}"#.utf8.reversed()).base64EncodedString()
        let expected = [
            #","input":{"phone":"+15551234567","locale":"en_US","attempt":3,"acceptsTerms":true},"sum":"#,
            #","inputSealed":"\#(sealedCard)","sum":"#, #","input":{"extra":"x","super":{"id":7}},"sum":"#,
            #","input":{"when":-978307200},"sum":"#,
        ]
        #expect(lines.count == expected.count)
        for (line, fields) in zip(lines, expected) {
            #expect(line.contains(fields), "\(line)")
        }
    }
}
