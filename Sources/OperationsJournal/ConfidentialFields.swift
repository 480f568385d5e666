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

    /// Writes `node` — a tree made with ``JSONValueEncoder/encode(_:separatingSecrets:)`` —
    /// as the `{"value":…,"confidential":[…]}` object, each secret sealed by `sealer` or
    /// withheld without one. The secrets' clear JSON is overwritten once written.
    ///
    /// - Returns: The object's JSON.
    /// - Throws: ``SealingFailure`` when the sealer throws; nothing of the value is returned.
    static func write(_ node: JSONValueEncoder.Node, sealer: (any JournalSealer)?) throws(SealingFailure)
        -> JSONLineWriter
    {
        var writer = Writer(sealer: sealer)
        try writer.write(node)
        var object = JSONLineWriter(capacity: writer.value.count + 64)
        object.byte(UInt8(ascii: "{"))
        object.string(Key.value)
        object.byte(UInt8(ascii: ":"))
        writer.value.withBytes { object.write($0) }
        object.byte(UInt8(ascii: ","))
        object.string(Key.confidential)
        object.append(":[")
        for (position, place) in writer.places.enumerated() {
            if position > 0 { object.byte(UInt8(ascii: ",")) }
            object.string(place)
        }
        object.append("]}")
        return object
    }

    /// The reason a withheld value's marker gives.
    static func withheldReason(_ typeName: String) -> String {
        "\(typeName) is confidential and the run has no sealer: not kept"
    }

    /// One token of a JSON Pointer: `~` as `~0`, `/` as `~1`.
    static func pointerToken(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Walks the tree, writing the clear parts and a marker at each secret.
    private struct Writer {
        let sealer: (any JournalSealer)?
        var value = JSONLineWriter(capacity: 256)
        /// The JSON Pointers of the secrets, in order.
        var places: [String] = []
        /// The pointer's tokens down to where the walk is.
        private var path: [String] = []

        init(sealer: (any JournalSealer)?) {
            self.sealer = sealer
        }

        mutating func write(_ node: JSONValueEncoder.Node) throws(SealingFailure) {
            switch node {
            case .array(let box):
                value.byte(UInt8(ascii: "["))
                for (position, item) in box.items.enumerated() {
                    if position > 0 { value.byte(UInt8(ascii: ",")) }
                    path.append(String(position))
                    try write(item)
                    path.removeLast()
                }
                value.byte(UInt8(ascii: "]"))
            case .object(let box):
                value.byte(UInt8(ascii: "{"))
                for position in box.keys.indices {
                    if position > 0 { value.byte(UInt8(ascii: ",")) }
                    value.string(box.keys[position])
                    value.byte(UInt8(ascii: ":"))
                    path.append(ConfidentialFields.pointerToken(box.keys[position]))
                    try write(box.values[position])
                    path.removeLast()
                }
                value.byte(UInt8(ascii: "}"))
            case .secret(let secret):
                defer { secret.erase() }
                places.append(path.map { "/" + $0 }.joined())
                value.byte(UInt8(ascii: "{"))
                if let sealer {
                    let sealed: [UInt8]
                    do {
                        sealed = try sealer.seal(secret.plaintext)
                    } catch {
                        throw SealingFailure(
                            typeName: secret.typeName, reason: "the sealer threw \(type(of: error))")
                    }
                    value.string(Key.sealed)
                    value.byte(UInt8(ascii: ":"))
                    value.string(Data(sealed).base64EncodedString())
                } else {
                    value.string(Key.withheld)
                    value.byte(UInt8(ascii: ":"))
                    value.string(ConfidentialFields.withheldReason(secret.typeName))
                }
                value.byte(UInt8(ascii: "}"))
            case .null, .bool, .integer, .string, .raw:
                value.write(node)
            }
        }
    }
}
