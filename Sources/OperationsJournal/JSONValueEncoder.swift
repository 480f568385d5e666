import Foundation
import Operations

/// Encodes a step value to JSON without `JSONEncoder`, for the journal's buffered appends.
///
/// `JSONEncoder` costs about two microseconds for a small struct (a dictionary-backed value
/// tree, boxed encoders, type checks per value), the whole budget of a buffered append. This
/// encoder builds a small ordered tree from the value's `Encodable` conformance and writes it
/// with the journal's own line writer. It handles strings, booleans, integers, nil, keyed and
/// unkeyed containers — what synthesized conformances of plain data produce. Anything whose
/// JSON `JSONEncoder` decides by itself (`Date`, `Data`, `URL`, `Decimal`, floating point)
/// makes it give up, and the journal falls back to `JSONEncoder` for that value,
/// so every value reads back exactly as before.
///
/// Objects keep their keys in encoding order (`JSONEncoder` without `.sortedKeys` writes them
/// in an unspecified order); a key encoded twice keeps its last value, as with `JSONEncoder`.
///
/// The walk also finds secrets: a ``JournalConfidential`` value anywhere inside (a token in a
/// field of a field) marks the whole value as one the journal must not keep in clear. The walk goes on past
/// what only `JSONEncoder` writes, so a secret beside a `Date` is found too.
///
/// Asked to separate secrets (``encode(_:separatingSecrets:)``), it builds a tree for a value
/// that holds a secret below its top level: each confidential value inside becomes a
/// ``Node/secret(_:)`` holding its own JSON, for the journal to seal or withhold alone
/// (``ConfidentialFields``), and what only `JSONEncoder` writes becomes a ``Node/raw(_:)``
/// written by `JSONEncoder` alone, so such a value always has a tree.
enum JSONValueEncoder {
    /// What encoding a value found.
    struct Encoded {
        /// The JSON, or `nil` when the value holds something only `JSONEncoder` encodes.
        let node: Node?
        /// Whether the value is or holds a ``JournalConfidential`` one.
        let holdsSecret: Bool
    }

    /// The JSON of `value` and whether it holds a secret; `nil` when its own conformance throws.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - separatingSecrets: Put each confidential value inside `value` (not `value` itself)
    ///     in a ``Node/secret(_:)`` of its own, and what only `JSONEncoder` writes in a
    ///     ``Node/raw(_:)``, so the result always has a tree.
    static func encode(_ value: any Encodable, separatingSecrets: Bool = false) -> Encoded? {
        let findings = Findings(separatesSecrets: separatingSecrets)
        if value is any JournalConfidential { findings.holdsSecret = true }
        if value is Date || value is Data || value is URL || value is Decimal {
            return Encoded(node: nil, holdsSecret: findings.holdsSecret)
        }
        let root = RootBox()
        do {
            try value.encode(to: TreeEncoder(root: .root(root), codingPath: [], findings: findings))
        } catch {
            return nil
        }
        return Encoded(node: findings.needsFoundation ? nil : root.node, holdsSecret: findings.holdsSecret)
    }

    /// What the walk noticed on its way, shared by every container of one encoding.
    final class Findings {
        var holdsSecret = false
        /// Something only `JSONEncoder` writes (a floating-point number, a date) was met.
        var needsFoundation = false
        /// Whether confidential values inside become ``Node/secret(_:)`` and what only
        /// `JSONEncoder` writes ``Node/raw(_:)``.
        let separatesSecrets: Bool

        init(separatesSecrets: Bool = false) {
            self.separatesSecrets = separatesSecrets
        }

        /// The node of a value only `JSONEncoder` writes: its JSON from `JSONEncoder` when
        /// secrets are separated, else `nil`, noting that the tree cannot be written.
        func foundationLeaf<T: Encodable>(_ value: T) throws -> Node? {
            guard separatesSecrets else {
                needsFoundation = true
                return nil
            }
            return .raw(try JSONValueEncoder.foundationJSON(value))
        }
    }

    /// `value`'s JSON as the journal's `JSONEncoder` writes it (slashes unescaped).
    static func foundationJSON<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// A confidential value's own JSON, kept apart from the clear value around it.
    final class SecretBox {
        /// The value's JSON; overwritten with zeros by ``erase()`` once it is sealed.
        private(set) var plaintext: [UInt8]
        /// The value's type, for the journal's reasons (never the value).
        let typeName: String

        init<T: Encodable>(_ value: T) throws {
            typeName = String(describing: T.self)
            if let encoded = JSONValueEncoder.encode(value), let node = encoded.node {
                var writer = JSONLineWriter(capacity: 128)
                writer.write(node)
                plaintext = writer.bytes
                writer.overwriteWithZeros()
            } else {
                plaintext = try JSONValueEncoder.foundationJSON(value)
            }
        }

        /// Overwrites the clear JSON, so it does not linger in memory after sealing.
        func erase() {
            for index in plaintext.indices { plaintext[index] = 0 }
            plaintext.removeAll()
        }
    }

    /// A JSON value as the encoder builds it.
    indirect enum Node {
        case null
        case bool(Bool)
        case integer(String)
        case string(String)
        case array(ArrayBox)
        case object(ObjectBox)
        /// JSON written by `JSONEncoder` (a date, a floating-point number), when secrets are
        /// separated.
        case raw([UInt8])
        /// A confidential value inside a clear one, when secrets are separated: never written
        /// in clear (``JSONLineWriter/write(_:)`` writes `null` for it).
        case secret(SecretBox)
    }

    final class ArrayBox {
        var items: [Node] = []

        func append(_ node: Node) -> Slot {
            items.append(node)
            return .item(self, items.count - 1)
        }
    }

    final class ObjectBox {
        var keys: [String] = []
        var values: [Node] = []

        /// Sets `key` (a key encoded again keeps its last value, as with `JSONEncoder`).
        @discardableResult
        func set(_ key: String, _ node: Node) -> Slot {
            if let index = keys.firstIndex(of: key) {
                values[index] = node
                return .field(self, index)
            }
            keys.append(key)
            values.append(node)
            return .field(self, values.count - 1)
        }
    }

    /// Where a nested value goes: the root, a field of an object or an item of an array.
    enum Slot {
        case root(RootBox)
        case field(ObjectBox, Int)
        case item(ArrayBox, Int)

        var node: Node? {
            switch self {
            case .root(let box): box.node
            case .field(let box, let index): box.values[index]
            case .item(let box, let index): box.items[index]
            }
        }

        func set(_ node: Node) {
            switch self {
            case .root(let box): box.node = node
            case .field(let box, let index): box.values[index] = node
            case .item(let box, let index): box.items[index] = node
            }
        }
    }

    final class RootBox {
        var node: Node?
    }

}

extension JSONLineWriter {
    /// A value encoded by ``JSONValueEncoder``, as the value of `key`.
    mutating func field(_ key: StaticString, node: JSONValueEncoder.Node) {
        self.key(key)
        write(node)
    }

    /// Writes `node` where a value goes (after a key, or as a whole document).
    mutating func write(_ node: JSONValueEncoder.Node) {
        switch node {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .integer(let digits): for digit in digits.utf8 { byte(digit) }
        case .string(let text): string(text)
        case .array(let box):
            byte(UInt8(ascii: "["))
            for (position, item) in box.items.enumerated() {
                if position > 0 { byte(UInt8(ascii: ",")) }
                write(item)
            }
            byte(UInt8(ascii: "]"))
        case .object(let box):
            byte(UInt8(ascii: "{"))
            for position in box.keys.indices {
                if position > 0 { byte(UInt8(ascii: ",")) }
                string(box.keys[position])
                byte(UInt8(ascii: ":"))
                write(box.values[position])
            }
            byte(UInt8(ascii: "}"))
        case .raw(let bytes): bytes.withUnsafeBytes { write($0) }
        case .secret:
            // Only ``ConfidentialFields`` writes a tree with secrets, sealing or withholding them.
            assertionFailure("a secret reached the clear writer")
            append("null")
        }
    }
}

// MARK: - The Encoder

private final class TreeEncoder: Encoder {
    let root: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]
    let findings: JSONValueEncoder.Findings
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(root: JSONValueEncoder.Slot, codingPath: [any CodingKey], findings: JSONValueEncoder.Findings) {
        self.root = root
        self.codingPath = codingPath
        self.findings = findings
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(object: object(), codingPath: codingPath, findings: findings))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(array: array(), codingPath: codingPath, findings: findings)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(slot: root, codingPath: codingPath, findings: findings)
    }

    /// The object at the root, made on first use (asking twice gives the same one, as with
    /// `JSONEncoder`).
    private func object() -> JSONValueEncoder.ObjectBox {
        if case .object(let box)? = root.node { return box }
        let box = JSONValueEncoder.ObjectBox()
        root.set(.object(box))
        return box
    }

    private func array() -> JSONValueEncoder.ArrayBox {
        if case .array(let box)? = root.node { return box }
        let box = JSONValueEncoder.ArrayBox()
        root.set(.array(box))
        return box
    }
}

/// Encodes a nested value into `slot`: plain values directly, anything else through its own
/// conformance; values whose JSON `JSONEncoder` special-cases are noted and walked for secrets.
private func encodeValue<T: Encodable>(
    _ value: T, into slot: JSONValueEncoder.Slot, codingPath: [any CodingKey], findings: JSONValueEncoder.Findings
) throws {
    switch value {
    case let text as String: slot.set(.string(text))
    case let flag as Bool: slot.set(.bool(flag))
    case let number as Int: slot.set(.integer(String(number)))
    case is Date, is Data, is URL, is Decimal, is Double, is Float:
        if let node = try findings.foundationLeaf(value) { slot.set(node) }
    default:
        if value is any JournalConfidential {
            findings.holdsSecret = true
            if findings.separatesSecrets { return slot.set(.secret(try JSONValueEncoder.SecretBox(value))) }
        }
        try value.encode(to: TreeEncoder(root: slot, codingPath: codingPath, findings: findings))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONValueEncoder.ObjectBox
    let codingPath: [any CodingKey]
    let findings: JSONValueEncoder.Findings

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(key.stringValue, .string(value))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { try leaf(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try leaf(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { integer(value, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // A placeholder `{}` (what `JSONEncoder` writes for a value that encodes nothing).
        let slot = object.set(key.stringValue, .object(JSONValueEncoder.ObjectBox()))
        try encodeValue(value, into: slot, codingPath: codingPath + [key], findings: findings)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let box = JSONValueEncoder.ObjectBox()
        object.set(key.stringValue, .object(box))
        return KeyedEncodingContainer(
            KeyedContainer<NestedKey>(object: box, codingPath: codingPath + [key], findings: findings))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let box = JSONValueEncoder.ArrayBox()
        object.set(key.stringValue, .array(box))
        return UnkeyedContainer(array: box, codingPath: codingPath + [key], findings: findings)
    }

    // As `JSONEncoder`: the superclass's value under "super", or under the given key.
    mutating func superEncoder() -> any Encoder {
        TreeEncoder(
            root: object.set("super", .object(JSONValueEncoder.ObjectBox())), codingPath: codingPath, findings: findings
        )
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(
            root: object.set(key.stringValue, .object(JSONValueEncoder.ObjectBox())), codingPath: codingPath + [key],
            findings: findings)
    }

    private func integer(_ value: some FixedWidthInteger, _ key: Key) {
        object.set(key.stringValue, .integer(String(value)))
    }

    private func leaf(_ value: some Encodable, _ key: Key) throws {
        if let node = try findings.foundationLeaf(value) { object.set(key.stringValue, node) }
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONValueEncoder.ArrayBox
    let codingPath: [any CodingKey]
    let findings: JSONValueEncoder.Findings
    var count: Int { array.items.count }

    /// A new item, `{}` until something is encoded into it.
    private func next() -> JSONValueEncoder.Slot {
        array.append(.object(JSONValueEncoder.ObjectBox()))
    }

    private func add(_ node: JSONValueEncoder.Node) {
        _ = array.append(node)
    }

    mutating func encodeNil() throws { add(.null) }
    mutating func encode(_ value: Bool) throws { add(.bool(value)) }
    mutating func encode(_ value: String) throws { add(.string(value)) }
    mutating func encode(_ value: Double) throws { if let node = try findings.foundationLeaf(value) { add(node) } }
    mutating func encode(_ value: Float) throws { if let node = try findings.foundationLeaf(value) { add(node) } }
    mutating func encode(_ value: Int) throws { add(.integer(String(value))) }
    mutating func encode(_ value: Int8) throws { add(.integer(String(value))) }
    mutating func encode(_ value: Int16) throws { add(.integer(String(value))) }
    mutating func encode(_ value: Int32) throws { add(.integer(String(value))) }
    mutating func encode(_ value: Int64) throws { add(.integer(String(value))) }
    mutating func encode(_ value: UInt) throws { add(.integer(String(value))) }
    mutating func encode(_ value: UInt8) throws { add(.integer(String(value))) }
    mutating func encode(_ value: UInt16) throws { add(.integer(String(value))) }
    mutating func encode(_ value: UInt32) throws { add(.integer(String(value))) }
    mutating func encode(_ value: UInt64) throws { add(.integer(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: next(), codingPath: codingPath, findings: findings)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let box = JSONValueEncoder.ObjectBox()
        add(.object(box))
        return KeyedEncodingContainer(
            KeyedContainer<NestedKey>(object: box, codingPath: codingPath, findings: findings))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let box = JSONValueEncoder.ArrayBox()
        add(.array(box))
        return UnkeyedContainer(array: box, codingPath: codingPath, findings: findings)
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(root: next(), codingPath: codingPath, findings: findings)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]
    let findings: JSONValueEncoder.Findings

    mutating func encodeNil() throws { slot.set(.null) }
    mutating func encode(_ value: Bool) throws { slot.set(.bool(value)) }
    mutating func encode(_ value: String) throws { slot.set(.string(value)) }
    mutating func encode(_ value: Double) throws { if let node = try findings.foundationLeaf(value) { slot.set(node) } }
    mutating func encode(_ value: Float) throws { if let node = try findings.foundationLeaf(value) { slot.set(node) } }
    mutating func encode(_ value: Int) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: Int8) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: Int16) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: Int32) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: Int64) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: UInt) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: UInt8) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: UInt16) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: UInt32) throws { slot.set(.integer(String(value))) }
    mutating func encode(_ value: UInt64) throws { slot.set(.integer(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: slot, codingPath: codingPath, findings: findings)
    }
}
