import Foundation
import Operations

/// A step value's JSON as the journal writes it, made in one walk of the value's `Encodable`
/// conformance that also puts a marker in the place of each ``JournalConfidential`` value inside
/// it (``ConfidentialFields``): sealed alone by the run's sealer, or withheld without one.
///
/// One walk rather than `JSONEncoder` beside a second walk that finds the secrets: the places it
/// lists are where it wrote the markers, so they cannot disagree with the JSON, and a durable
/// step's line costs one walk (Docs/Benchmarks.md, "journal.fsync"). It writes what `JSONEncoder`
/// writes with its default strategies, as `JSONDecoder` reads it back: `Data` in base64, a `URL`
/// as its absolute string, a `Decimal` as a number, a `Date` as its own conformance encodes it,
/// an object's keys sorted by their UTF-8 bytes.
enum ValueJSON {
    /// A value's JSON and the JSON Pointers (RFC 6901) of the markers in it.
    struct Written {
        var json: [UInt8] = []
        var confidential: [String] = []
    }

    /// Writes `value`, a marker at each confidential value inside it when `findingSecrets`
    /// (what a confidential value holds goes with it).
    ///
    /// - Throws: `EncodingError` when the conformance throws or writes what JSON cannot hold (a
    ///   NaN, nothing at all); ``ConfidentialFields/SealingFailure`` when the sealer throws.
    static func write(
        _ value: any Encodable, sealer: (any JournalSealer)?, findingSecrets: Bool = true
    ) throws -> Written {
        let walk = Walk(sealer: sealer, findingSecrets: findingSecrets)
        let root = try walk.json(of: value, at: [], key: nil)
        if case .node(let node) = root, node.shape == .unset {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "Top-level \(type(of: value)) did not encode any values."))
        }
        var written = Written(confidential: walk.confidential)
        root.write(into: &written.json)
        return written
    }

    /// One JSON value of the tree the walk fills: a conformance may hold several containers at
    /// once and fill them in any order, as `JSONEncoder` allows, so containers are nodes written
    /// out at the end.
    enum Value {
        case string(String)
        /// Written as it is: a number, `true`, `null`.
        case literal(String)
        case node(Node)

        func write(into bytes: inout [UInt8]) {
            switch self {
            case .string(let text): JournalLine.appendString(text, to: &bytes)
            case .literal(let text): bytes += text.utf8
            case .node(let node): node.write(into: &bytes)
            }
        }
    }

    final class Node {
        enum Shape { case unset, object, array, single }
        var shape = Shape.unset
        private(set) var members: [(key: String, value: Value)] = []
        var items: [Value] = []
        var single = Value.literal("null")
        /// Where each key is in ``members``, once there are too many to look through.
        private var positions: [String: Int] = [:]

        /// Sets the member `key`: a key written again (however it is spelled, as `String`
        /// compares) keeps its place and takes the new value, as in `JSONEncoder`'s dictionary.
        func set(_ key: String, _ value: Value) {
            if members.count < 16 {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = value
                    return
                }
            } else {
                if positions.isEmpty {
                    for (index, member) in members.enumerated() { positions[member.key] = index }
                }
                if let index = positions[key] {
                    members[index].value = value
                    return
                }
                positions[key] = members.count
            }
            members.append((key, value))
        }

        /// The node as the shape the container asked for; the first container's shape stays.
        func becoming(_ shape: Shape) -> Node {
            if self.shape == .unset { self.shape = shape }
            return self
        }

        func write(into bytes: inout [UInt8]) {
            switch shape {
            case .unset: bytes += "{}".utf8  // A nested value that encoded nothing, as JSONEncoder writes it.
            case .single: single.write(into: &bytes)
            case .array:
                bytes.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    item.write(into: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            case .object:
                bytes.append(UInt8(ascii: "{"))
                // Keys sorted, so that equal values have equal bytes whatever order a dictionary
                // hands its keys in.
                let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                for (index, member) in sorted.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    JournalLine.appendString(member.key, to: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    member.value.write(into: &bytes)
                }
                bytes.append(UInt8(ascii: "}"))
            }
        }
    }

    /// What one walk shares across its containers: the sealer, and the markers written so far.
    final class Walk {
        let sealer: (any JournalSealer)?
        let findingSecrets: Bool
        var confidential: [String] = []

        init(sealer: (any JournalSealer)?, findingSecrets: Bool) {
            self.sealer = sealer
            self.findingSecrets = findingSecrets
        }

        /// `value` at `path` + `key`: a leaf at once, a confidential value as its marker, anything
        /// else through its conformance.
        func json<T: Encodable>(of value: T, at path: [String], key: String?) throws -> Value {
            if let leaf = try ValueJSON.leaf(value, at: path) { return leaf }
            let path = key.map { path + [$0] } ?? path
            if findingSecrets, value is any JournalConfidential { return try marker(for: value, at: path) }
            let node = Node()
            try value.encode(to: ValueEncoder(node: node, path: path, walk: self))
            return .node(node)
        }

        private func marker<T: Encodable>(for value: T, at path: [String]) throws -> Value {
            confidential.append(
                path.map {
                    "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                }.joined())
            let typeName = "\(T.self)"
            let marker = Node().becoming(.object)
            guard let sealer else {
                marker.set(ConfidentialFields.Key.withheld, .string(ConfidentialFields.withheldReason(typeName)))
                return .node(marker)
            }
            let plaintext = try ValueJSON.write(value, sealer: nil, findingSecrets: false).json
            do {
                marker.set(
                    ConfidentialFields.Key.sealed, .string(Data(try sealer.seal(plaintext)).base64EncodedString()))
            } catch {
                throw ConfidentialFields.SealingFailure(
                    typeName: typeName, reason: "the sealer threw \(type(of: error))")
            }
            return .node(marker)
        }
    }

    /// The standard types `JSONEncoder` writes as one JSON value rather than through their own
    /// conformance; told by identity first, since every value of a walk is asked.
    private static let leaves = Set(
        [
            Bool.self, String.self, Double.self, Float.self, Int.self, Int8.self, Int16.self, Int32.self, Int64.self,
            UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self, Data.self, URL.self, Decimal.self,
        ].map { ObjectIdentifier($0) })

    private static func leaf<T>(_ value: T, at path: [String]) throws -> Value? {
        guard leaves.contains(ObjectIdentifier(T.self)) else { return nil }
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .literal(flag ? "true" : "false")
        case let number as Int: return .literal(String(number))
        case let number as Double: return try .literal(finite(number, number.isFinite, at: path))
        case let number as Float: return try .literal(finite(number, number.isFinite, at: path))
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let number as Decimal: return try .literal(finite(number, !number.isNaN, at: path))
        case let number as any BinaryInteger: return .literal(number.description)
        default: return nil
        }
    }

    /// A number's shortest form that reads back the same, without a `.0` (as `JSONEncoder`);
    /// NaN and the infinities, which JSON cannot hold, throw as they do there.
    private static func finite(
        _ number: some CustomStringConvertible, _ isFinite: Bool, at path: [String]
    ) throws -> String {
        guard isFinite else {
            throw EncodingError.invalidValue(
                number,
                .init(
                    codingPath: path.map(PathKey.init(stringValue:)),
                    debugDescription: "Unable to encode \(number) directly in JSON."))
        }
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    struct PathKey: CodingKey {
        let stringValue: String
        var intValue: Int? { Int(stringValue) }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.stringValue = String(intValue) }
    }
}

/// The `Encoder` a walk hands each conformance: its containers fill ``ValueJSON/Node``s.
private struct ValueEncoder: Encoder {
    let node: ValueJSON.Node
    let path: [String]
    let walk: ValueJSON.Walk

    var codingPath: [any CodingKey] { path.map(ValueJSON.PathKey.init(stringValue:)) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(node: node.becoming(.object), path: path, walk: walk))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        Unkeyed(node: node.becoming(.array), path: path, walk: walk)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node.becoming(.single), path: path, walk: walk)
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: ValueJSON.Node
        let path: [String]
        let walk: ValueJSON.Walk
        var codingPath: [any CodingKey] { path.map(ValueJSON.PathKey.init(stringValue:)) }

        mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, .literal("null")) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.set(key.stringValue, try walk.json(of: value, at: path, key: key.stringValue))
        }

        private func child(_ key: String, _ shape: ValueJSON.Node.Shape) -> ValueJSON.Node {
            let child = ValueJSON.Node().becoming(shape)
            node.set(key, .node(child))
            return child
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(
                Keyed<NestedKey>(node: child(key.stringValue, .object), path: path + [key.stringValue], walk: walk))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unkeyed(node: child(key.stringValue, .array), path: path + [key.stringValue], walk: walk)
        }

        mutating func superEncoder() -> any Encoder {
            ValueEncoder(node: child("super", .unset), path: path + ["super"], walk: walk)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            ValueEncoder(node: child(key.stringValue, .unset), path: path + [key.stringValue], walk: walk)
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let node: ValueJSON.Node
        let path: [String]
        let walk: ValueJSON.Walk
        var codingPath: [any CodingKey] { path.map(ValueJSON.PathKey.init(stringValue:)) }
        var count: Int { node.items.count }

        private func child(_ shape: ValueJSON.Node.Shape) -> (node: ValueJSON.Node, path: [String]) {
            let child = ValueJSON.Node().becoming(shape)
            let path = path + [String(node.items.count)]
            node.items.append(.node(child))
            return (child, path)
        }

        mutating func encodeNil() throws { node.items.append(.literal("null")) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            node.items.append(try walk.json(of: value, at: path, key: String(node.items.count)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let (child, path) = child(.object)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, path: path, walk: walk))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let (child, path) = child(.array)
            return Unkeyed(node: child, path: path, walk: walk)
        }

        mutating func superEncoder() -> any Encoder {
            let (child, path) = child(.unset)
            return ValueEncoder(node: child, path: path, walk: walk)
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let node: ValueJSON.Node
        let path: [String]
        let walk: ValueJSON.Walk
        var codingPath: [any CodingKey] { path.map(ValueJSON.PathKey.init(stringValue:)) }

        mutating func encodeNil() throws { node.single = .literal("null") }

        mutating func encode<T: Encodable>(_ value: T) throws {
            node.single = try walk.json(of: value, at: path, key: nil)
        }
    }
}
