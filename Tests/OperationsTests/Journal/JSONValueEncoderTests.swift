import Foundation
import Testing

@testable import Operations
@testable import OperationsJournal

/// The journal's own encoder writes the same JSON values as `JSONEncoder` (compared parsed:
/// `JSONEncoder` orders an object's keys its own way), and gives up where `JSONEncoder`
/// decides the JSON itself.
@Suite struct JSONValueEncoderTests {
    struct Inner: Codable, Sendable {
        let name: String
        let tags: [String]
        let scores: [String: Int]
    }

    enum Choice: Codable, Sendable {
        case none
        case one(Int)
        case pair(label: String, flag: Bool)
    }

    class Base: Codable, @unchecked Sendable {
        var id = 7
    }

    final class Derived: Base, @unchecked Sendable {
        var extra = "x"
        override init() { super.init() }
        required init(from decoder: any Decoder) throws { try super.init(from: decoder) }
        private enum CodingKeys: String, CodingKey { case extra }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }
    }

    struct Everything: Codable, Sendable {
        let text: String
        let escaped: String
        let number: Int
        let small: Int8
        let big: UInt64
        let negative: Int32
        let flag: Bool
        let missing: String?
        let present: Int?
        let inner: Inner
        let list: [Inner]
        let nested: [[Int]]
        let choices: [Choice]
        let intKeys: [Int: String]
    }

    static let everything = Everything(
        text: "+1 555 0100", escaped: "quote \" slash / back \\ tab \t nl \n bell \u{7} é … 🙂", number: -42,
        small: 5, big: UInt64.max, negative: Int32.min, flag: true, missing: nil, present: 3,
        inner: Inner(name: "a", tags: ["x", "y"], scores: ["k": 1]), list: [Inner(name: "b", tags: [], scores: [:])],
        nested: [[1, 2], []], choices: [.none, .one(1), .pair(label: "l", flag: false)], intKeys: [1: "one", 2: "two"])

    @Test(arguments: [
        everything as any Encodable & Sendable, Inner(name: "n", tags: ["t"], scores: [:]), [1, 2, 3], ["a": [true]],
        Choice.pair(label: "x", flag: true), Optional<Int>.none, Derived(),
    ])
    func writesWhatJSONEncoderWrites(value: any Encodable & Sendable) throws {
        let node = try #require(JSONValueEncoder.encode(value)?.node)
        var lines = JSONLineWriter()
        lines.beginLine()
        lines.field("value", node: node)
        lines.endLine()
        let ours =
            (try JSONSerialization.jsonObject(with: Data(lines.bytes)) as? NSDictionary)?
            .mutableCopy() as? NSMutableDictionary
        // Every journal line ends with its checksum; the value is what is compared.
        ours?.removeObject(forKey: "sum")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let theirs =
            try JSONSerialization.jsonObject(
                with: Data("{\"value\":".utf8) + encoder.encode(value) + Data("}".utf8)) as? NSDictionary
        #expect(ours != nil)
        #expect(ours == theirs)
    }

    @Test(arguments: [
        Date(timeIntervalSince1970: 5) as any Encodable & Sendable, Data([1, 2, 3]), URL(string: "https://e.x/a")!,
        Decimal(string: "1.5")!, 1.5, ["when": Date()], [Float(2)],
    ])
    func givesUpWhereJSONEncoderDecidesTheJSON(value: any Encodable & Sendable) {
        #expect(JSONValueEncoder.encode(value)?.node == nil)
        #expect(JSONValueEncoder.encode(value)?.holdsSecret == false)
    }

    private struct Secret: Encodable, JournalConfidential {
        let raw: String
    }

    private struct Holder: Encodable {
        let when: Date
        let items: [Int: Secret]
    }

    @Test func findsASecretAnywhereInsideEvenBesideWhatOnlyJSONEncoderWrites() throws {
        #expect(JSONValueEncoder.encode(Secret(raw: "s"))?.holdsSecret == true)
        let nested = try #require(JSONValueEncoder.encode(Holder(when: Date(), items: [1: Secret(raw: "s")])))
        #expect(nested.holdsSecret)
        #expect(nested.node == nil)
        #expect(JSONValueEncoder.encode(Self.everything)?.holdsSecret == false)
    }
}
