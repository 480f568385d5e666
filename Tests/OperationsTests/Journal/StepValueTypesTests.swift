import Foundation
import Testing

@testable import Operations
@testable import OperationsJournal

/// The journal remembers only the types whose values all sort the same way, and a value of a
/// remembered type is written as the first one was.
@Suite struct StepValueTypesTests {
    struct Plain: Codable, Sendable {
        let name: String
    }

    struct Secret: Codable, Sendable, JournalConfidential {
        let raw: String
    }

    final class Box: Codable, @unchecked Sendable {
        var count = 1
    }

    private func learned(_ value: any Encodable) -> StepValueTypes.Known? {
        var types = StepValueTypes()
        types.learn(value, StepValueTypes.Traits(confidential: false, writtenByFoundation: false))
        return types.lookUp(type(of: value))
    }

    @Test func remembersStructsAndEnums() throws {
        #expect(learned(Plain(name: "a")) != nil)
        #expect(learned(JSONValueEncoderTests.Choice.one(1)) != nil)
        let known = try #require(learned(Plain(name: "a")))
        #expect(known.encodable(Plain(name: "b")) is Plain)
    }

    @Test func forgetsTypesWhoseValuesMayCastAsWhatTheyHold() {
        #expect(learned(Optional(Plain(name: "a"))) == nil)
        #expect(learned(Optional<String>.none) == nil)
        #expect(learned(Box()) == nil)
    }

    @Test func knowsOnlyTheTypesItLearned() {
        var types = StepValueTypes()
        types.learn(Plain(name: "a"), StepValueTypes.Traits(confidential: true, writtenByFoundation: false))
        #expect(types.lookUp(Plain.self)?.traits.confidential == true)
        #expect(types.lookUp(Secret.self) == nil)
        #expect(types.lookUp(String.self) == nil)
    }

    /// Values of one type, the second and later through the remembered type: the same lines as
    /// the first, secrets sealed or withheld each time.
    @Test func aRememberedTypeIsWrittenAsTheFirstValueWas() throws {
        let texts = try withTemporaryDirectory { directory in
            let journal = try ScenarioJournal.create(at: directory.appendingPathComponent("run.jsonl"), scenario: "S")
            let address = StepAddress(path: [.init(index: 0, name: "Op")])
            let values: [any Sendable] = [
                Plain(name: "x"), Plain(name: "x"), Secret(raw: "s"), Secret(raw: "s"), Optional(Plain(name: "y")),
                Optional<Plain>.none, "text", Optional("text"), 5, Optional(5),
            ]
            for value in values {
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepLaunched, scenario: "S", address: address, attempt: 1, duration: nil, value: value))
            }
            try journal.close()
            return try journalLines(journal.url).dropFirst().map { line in
                line.filter { $0.key.hasPrefix("input") }.mapValues { "\($0)" }
            }
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
