import Foundation
import Operations
import Testing

@testable import OperationsJournal

/// Where a value's confidential parts sit, as the JSON Pointers its journal line lists: every
/// element of an array takes a place, the plain ones (strings, numbers, booleans, null) too, so a
/// pointer names the element `JSONEncoder` writes there.
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
        let places = try ConfidentialFields.places(
            in: Holder(count: 3, note: "n", items: Mixed(), byName: ["k": Secret(value: "t")]))
        #expect(places.map(\.pointer) == ["/items/5", "/byName/k"])
    }

    @Test func aValueOfPlainLeavesHasNoPlaces() throws {
        #expect(try ConfidentialFields.places(in: [1, 2, 3]).isEmpty)
        #expect(try ConfidentialFields.places(in: ["a": true]).isEmpty)
    }
}
