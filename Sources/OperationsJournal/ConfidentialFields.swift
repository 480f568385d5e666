import Foundation
import Operations

/// A step value that holds ``JournalConfidential`` values below its top level (an account
/// number inside an order), as the journal writes it: the value in clear, each confidential
/// value in its place sealed alone by the run's ``JournalSealer``, or withheld without one.
///
/// Sealing only the secret keeps the rest of the value readable in the file, and with a
/// sealer the whole value replays on resume; sealing the whole value, as journals did before,
/// gave the same replay but hid the clear fields, and withholding it whole relaunched its step
/// for one field.
///
/// ## Format
///
/// The line carries `inputWithConfidentialFields` / `outputWithConfidentialFields` (never
/// `input` / `output`, so a reader that does not know the form does not take the markers for
/// the value's own fields; it sees no value and launches the step again):
///
/// ```
/// "outputWithConfidentialFields":{"value":{"order":"o-1","account":{"sealed":"q83v…"},"amount":1200},"confidential":["/account"]}
/// "outputWithConfidentialFields":{"value":{"order":"o-1","account":{"withheld":"Account is confidential and the run has no sealer: not kept"},"amount":1200},"confidential":["/account"]}
/// ```
///
/// `confidential` lists, as JSON Pointers (RFC 6901: `/items/0/card`, `~0` for `~` and `~1`
/// for `/` in a key), every place of `value` that holds a confidential value. Only at those
/// places is an object read as a marker: `{"sealed":…}` (base64 of what the sealer made of the
/// value's JSON) or `{"withheld":…}` (why it is not kept). A real value of the same shape
/// anywhere else is the value's own. A confidential value inside another is sealed with it.
enum ConfidentialFields {
    /// Why a value could not be written: the sealer threw.
    struct SealingFailure: Error {
        /// The confidential value's type.
        let typeName: String
        /// The sealer's error, by its type only: its description might quote the plaintext.
        let reason: String
    }

    /// The marker keys and the object's member names.
    enum Key {
        static let value = "value"
        static let confidential = "confidential"
        static let sealed = "sealed"
        static let withheld = "withheld"
    }

    /// A confidential value inside another, and where it sits.
    struct Place {
        /// The JSON Pointer's tokens, as `JSONEncoder` lays the value out.
        let tokens: [String]
        /// The confidential value itself, to be sealed alone.
        let value: any Encodable

        /// `~` as `~0` and `/` as `~1` in each token.
        var pointer: String {
            tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
                .joined()
        }
    }

    /// The confidential values `value` holds, in the order its conformance encodes them; `value`
    /// itself is not one of them, and what a confidential value holds is sealed with it.
    ///
    /// Found by walking the conformance with an encoder that writes nothing (``PlaceFinder``):
    /// `JSONEncoder` hands no hook to a user type's synthesized `encode(to:)`.
    ///
    /// - Throws: What the value's conformance throws.
    static func places(in value: any Encodable) throws -> [Place] {
        let found = PlaceFinder.Found()
        try value.encode(to: PlaceFinder(path: [], found: found))
        return found.places
    }

    /// `{"value":…,"confidential":[…]}`: the value's JSON (from `JSONEncoder`) with each place
    /// holding its marker, each secret sealed by `sealer` (its own JSON from `encode`) or
    /// withheld without one.
    ///
    /// - Returns: The object's JSON; `nil` when a place is not in the JSON (a conformance that
    ///   encodes differently from one encoder to another), so nothing is written in clear.
    /// - Throws: ``SealingFailure`` when the sealer throws; nothing of the value is returned.
    static func write(
        _ json: Data, places: [Place], sealer: (any JournalSealer)?, encode: (any Encodable) throws -> Data
    ) throws(SealingFailure) -> [UInt8]? {
        guard var tree = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed) else { return nil }
        for place in places {
            let typeName = "\(type(of: place.value))"
            let marker: [String: Any]
            if let sealer {
                guard let plaintext = try? encode(place.value) else { return nil }
                do {
                    marker = [Key.sealed: Data(try sealer.seal(Array(plaintext))).base64EncodedString()]
                } catch {
                    throw SealingFailure(typeName: typeName, reason: "the sealer threw \(type(of: error))")
                }
            } else {
                marker = [Key.withheld: withheldReason(typeName)]
            }
            guard let replaced = replacing(at: place.tokens[...], in: tree, with: marker) else { return nil }
            tree = replaced
        }
        guard let value = try? JSONSerialization.data(withJSONObject: tree, options: jsonOptions),
            let pointers = try? JSONSerialization.data(withJSONObject: places.map(\.pointer), options: jsonOptions)
        else { return nil }
        return Array(#"{"\#(Key.value)":"#.utf8) + value + Array(#","\#(Key.confidential)":"#.utf8) + pointers + [
            UInt8(ascii: "}")
        ]
    }

    /// How the journal writes JSON it rebuilds: keys sorted, so equal values have equal bytes.
    static let jsonOptions: JSONSerialization.WritingOptions = [
        .fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes,
    ]

    /// `json` (as `JSONSerialization` parses it) with the value at `tokens` replaced by `field`;
    /// `nil` when nothing is there.
    static func replacing(at tokens: ArraySlice<String>, in json: Any, with field: Any) -> Any? {
        guard let token = tokens.first else { return field }
        if var members = json as? [String: Any] {
            guard let member = members[token], let replaced = replacing(at: tokens.dropFirst(), in: member, with: field)
            else { return nil }
            members[token] = replaced
            return members
        }
        if var items = json as? [Any] {
            guard let index = Int(token), items.indices.contains(index),
                let replaced = replacing(at: tokens.dropFirst(), in: items[index], with: field)
            else { return nil }
            items[index] = replaced
            return items
        }
        return nil
    }

    /// The reason a withheld value's marker gives.
    static func withheldReason(_ typeName: String) -> String {
        "\(typeName) is confidential and the run has no sealer: not kept"
    }
}
