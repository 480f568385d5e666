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

    /// How the journal writes JSON it rebuilds when a sealed field is opened: keys sorted, so
    /// equal values have equal bytes.
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
