import Foundation
import OperationsTestSupport
import Testing

@testable import Operations
@testable import OperationsJournal

/// How step values reach a journal line: any `Encodable` shape, keys written once however they
/// are spelled, the widest integers exact, and confidential values sealed or withheld wherever
/// they sit inside a value.
@Suite struct JournalValueTests {
    struct Secret: Codable, Sendable, Equatable, JournalConfidential {
        let raw: String
    }

    /// Writes `names` as the keys of one object, in order.
    struct NamedKeys: Encodable, Sendable {
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (index, name) in names.enumerated() { try container.encode(index, forKey: .init(stringValue: name)) }
        }
    }

    struct Widest: Codable, Sendable, Equatable {
        let unsigned: UInt64
        let signed: Int64
        let int: Int
        let small: [Int8]
    }

    class Base: Codable, @unchecked Sendable {
        var id = 7
    }

    /// Keeps a secret in its superclass's part, reached through `superEncoder()`.
    final class Derived: Base, @unchecked Sendable {
        var secrets = [Secret(raw: "in-super-\(1)")]
        override init() { super.init() }
        required init(from decoder: any Decoder) throws { try super.init(from: decoder) }
        private enum CodingKeys: String, CodingKey { case secrets }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try super.encode(to: container.superEncoder())
            var nested = container.superEncoder(forKey: .secrets).unkeyedContainer()
            for secret in secrets { try nested.encode(secret) }
        }
    }

    struct Holder: Codable, Sendable, Equatable {
        let when: Date
        let list: [Secret]
        let byNumber: [Int: Secret]
        let maybe: Secret?
        let none: Secret?
    }

    /// Keeps the plaintext readable in the test: the bytes sealed are the value's JSON, reversed.
    struct ReversingSealer: JournalSealer {
        func seal(_ plaintext: [UInt8]) throws -> [UInt8] { plaintext.reversed() }
        func open(_ sealed: [UInt8]) throws -> [UInt8] { sealed.reversed() }
    }

    /// The text of each launch line after the header, for `values` journaled as step inputs.
    private func lines(_ values: [any Sendable], sealer: (any JournalSealer)? = nil) throws -> [String] {
        try withTemporaryDirectory { directory in
            let journal = try ScenarioJournal.create(
                at: directory.appendingPathComponent("run.jsonl"), scenario: "S", sealer: sealer)
            for value in values {
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepLaunched, scenario: "S", address: StepAddress((0, "Op")), attempt: 1,
                        duration: nil, value: value))
            }
            try journal.close()
            let text = try String(contentsOf: journal.url, encoding: .utf8)
            return text.split(separator: "\n").dropFirst().map(String.init)
        }
    }

    private func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test(arguments: [
        ["a", "b", "a"], ["K", "\u{212A}"], ["caf\u{E9}", "x", "cafe\u{301}"], ["a \"q\"", "a \"q\""],
        ["tab\tx", "b", "tab\tx"],
    ])
    func aKeyWrittenTwiceHoweverItIsSpelledIsWrittenOnce(names: [String]) throws {
        let line = try #require(try lines([NamedKeys(names: names)]).first)
        let input = try #require(try object(line)["input"] as? [String: Any])
        #expect(input.count == Set(names).count, "\(line)")
        // Every name once in the text, not only once in the parsed object.
        for name in Set(names) {
            let encoded = String(decoding: try JSONEncoder().encode(name), as: UTF8.self)
            #expect(line.components(separatedBy: encoded + ":").count - 1 <= 1, "\(line)")
        }
    }

    @Test func theWidestIntegersAreWrittenAndReadExactly() throws {
        let value = Widest(unsigned: .max, signed: .min, int: .max, small: [.min, .max])
        let line = try #require(try lines([value]).first)
        #expect(line.contains(#""unsigned":18446744073709551615"#), "\(line)")
        #expect(line.contains(#""signed":-9223372036854775808"#), "\(line)")
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: Scenario<Widest, Widest>("Keep") { $0 }, input: value)
            try journal.close()
            #expect(try store.load(journal.runID).input(as: Widest.self) == value)
        }
    }

    @Test func aSecretAnywhereInsideIsSealedAloneInItsPlace() throws {
        let holder = Holder(
            when: Date(timeIntervalSince1970: 0), list: [Secret(raw: "s-list")], byNumber: [3: Secret(raw: "s-map")],
            maybe: Secret(raw: "s-maybe"), none: nil)
        for sealer in [ReversingSealer() as (any JournalSealer)?, nil] {
            let text = try lines([holder, Derived()], sealer: sealer)
            #expect(text.count == 2)
            for line in text {
                for raw in ["s-list", "s-map", "s-maybe", "in-super-1"] { #expect(!line.contains(raw), "\(line)") }
            }
            let first = try #require(try object(text[0])["inputWithConfidentialFields"] as? [String: Any])
            #expect(first["confidential"] as? [String] == ["/list/0", "/byNumber/3", "/maybe"])
            let second = try #require(try object(text[1])["inputWithConfidentialFields"] as? [String: Any])
            #expect(second["confidential"] as? [String] == ["/secrets/0"])
            #expect((second["value"] as? [String: Any])?["super"] as? [String: Int] == ["id": 7])
        }
    }

    @Test func aValueWithSecretsReplaysWholeWithTheSealer() throws {
        let holder = Holder(
            when: Date(timeIntervalSince1970: 5), list: [Secret(raw: "a"), Secret(raw: "b")],
            byNumber: [1: Secret(raw: "c")], maybe: nil, none: nil)
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory, sealer: ReversingSealer())
            let journal = try store.create(scenario: Scenario<Holder, Holder>("Keep") { $0 }, input: holder)
            try journal.close()
            let record = try store.load(journal.runID)
            #expect(try record.input(as: Holder.self, sealer: ReversingSealer()) == holder)
            #expect(try record.input(as: Holder.self) == nil, "sealed, and no sealer given")
        }
    }

    struct Plain: Codable, Sendable {
        let name: String
    }

    /// Values of one type are written alike each time, secrets sealed or withheld each time.
    @Test func valuesOfOneTypeAreWrittenAlike() throws {
        let values: [any Sendable] = [
            Plain(name: "x"), Plain(name: "x"), Secret(raw: "s"), Secret(raw: "s"), Optional(Plain(name: "y")),
            Optional<Plain>.none, "text", Optional("text"), 5, Optional(5),
        ]
        let texts = try lines(values).map { line in
            try object(line).filter { $0.key.hasPrefix("input") }.mapValues { "\($0)" }
        }
        #expect(texts.count == 10)
        #expect(texts[0] == texts[1])
        #expect(texts[0]["input"] != nil)
        #expect(texts[2] == texts[3])
        #expect(texts[2]["inputNotRecorded"] != nil)
        #expect(texts[4]["input"] != nil)
        #expect(texts[5]["input"] != nil)
        #expect(texts[6] == texts[7])
        #expect(texts[8] == texts[9])
    }
}
