import Foundation
import Operations
import Testing

@testable import OperationsJournal

/// Where a value's confidential parts sit, as the JSON Pointers its journal line lists: every
/// element of an array takes a place, the plain ones (strings, numbers, booleans, null) too, so a
/// pointer names the element written there.
struct ConfidentialPlaceTests {
    struct Secret: Codable, Sendable, JournalConfidential {
        let value: String
    }

    /// `[1, "two", true, null, 2.5, secret]`, written item by item as a hand-made conformance may.
    struct Mixed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var items = encoder.unkeyedContainer()
            try items.encode(1)
            try items.encode("two")
            try items.encode(true)
            try items.encodeNil()
            try items.encode(2.5)
            try items.encode(Secret(value: "s"))
        }
    }

    struct Holder: Encodable {
        let count: Int
        let note: String?
        let items: Mixed
        let byName: [String: Secret]
    }

    @Test func plainElementsTakeTheirPlaceBeforeAConfidentialOne() throws {
        let written = try ValueJSON.write(
            Holder(count: 3, note: "n", items: Mixed(), byName: ["k": Secret(value: "t")]), sealer: nil)
        #expect(written.confidential == ["/items/5", "/byName/k"])
        let tree = try #require(try JSONSerialization.jsonObject(with: Data(written.json)) as? [String: Any])
        let items = try #require(tree["items"] as? [Any])
        #expect((items[5] as? [String: String])?["withheld"] == ConfidentialFields.withheldReason("Secret"))
        #expect(!String(decoding: written.json, as: UTF8.self).contains("\"t\""))
    }

    @Test func aKeyWithASlashOrATildeIsEscapedInItsPointer() throws {
        let written = try ValueJSON.write(["a/b~c": Secret(value: "x")], sealer: nil)
        #expect(written.confidential == ["/a~1b~0c"])
    }

    @Test func aValueOfPlainLeavesHasNoPlaces() throws {
        #expect(try ValueJSON.write([1, 2, 3], sealer: nil).confidential.isEmpty)
        #expect(try ValueJSON.write(["a": true], sealer: nil).confidential.isEmpty)
    }

    @Test func aConfidentialValueIsWrittenInClearWhenSecretsAreNotLookedFor() throws {
        let written = try ValueJSON.write(Secret(value: "x"), sealer: nil, findingSecrets: false)
        #expect(written.confidential.isEmpty)
        #expect(String(decoding: written.json, as: UTF8.self) == #"{"value":"x"}"#)
    }
}
