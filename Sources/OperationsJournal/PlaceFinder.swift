import Operations

/// An encoder that writes nothing: it walks a value's `Encodable` conformance to note where the
/// ``JournalConfidential`` values inside sit, as the tokens of JSON Pointers into the JSON
/// `JSONEncoder` writes for the value (a keyed member by its key, an array item by its index, a
/// superclass under `super`).
///
/// See ``ConfidentialFields/places(in:)``.
struct PlaceFinder: Encoder {
    /// What the walk found, shared by every container of one walk.
    final class Found {
        var places: [ConfidentialFields.Place] = []
    }

    let path: [String]
    let found: Found

    var codingPath: [any CodingKey] { path.map(PathKey.init(stringValue:)) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(path: path, found: found))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        Unkeyed(path: path, found: found)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(path: path, found: found)
    }

    /// Notes `value` at `path` + `key` when it is confidential, and walks into it otherwise.
    ///
    /// Every container's `encode` of a JSON leaf (a boolean, a string, a number) comes here too,
    /// and ends at once: a leaf holds nothing, and walking its conformance would come back to it.
    /// Leaves are told by their type's identity, before the path is built (Docs/Benchmarks.md,
    /// "journal.fsync").
    static func visit<T: Encodable>(_ value: T, at path: [String], key: String? = nil, _ found: Found) throws {
        if leaves.contains(ObjectIdentifier(T.self)) { return }
        let path = key.map { path + [$0] } ?? path
        if value is any JournalConfidential { return found.places.append(.init(tokens: path, value: value)) }
        // The rarer leaves (`Int128`, `Float16`, …) by their protocols.
        if value is any BinaryInteger || value is any BinaryFloatingPoint { return }
        try value.encode(to: PlaceFinder(path: path, found: found))
    }

    /// The standard library's types that `JSONEncoder` writes as a JSON leaf, but for the rare
    /// ones.
    private static let leaves = Set(
        [
            Bool.self, String.self, Double.self, Float.self, Int.self, Int8.self, Int16.self, Int32.self, Int64.self,
            UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
        ].map { ObjectIdentifier($0) })

    private struct PathKey: CodingKey {
        let stringValue: String
        var intValue: Int? { Int(stringValue) }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.stringValue = String(intValue) }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let path: [String]
        let found: Found
        var codingPath: [any CodingKey] { path.map(PathKey.init(stringValue:)) }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try PlaceFinder.visit(value, at: path, key: key.stringValue, found)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(Keyed<NestedKey>(path: path + [key.stringValue], found: found))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unkeyed(path: path + [key.stringValue], found: found)
        }

        mutating func superEncoder() -> any Encoder { PlaceFinder(path: path + ["super"], found: found) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            PlaceFinder(path: path + [key.stringValue], found: found)
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let path: [String]
        let found: Found
        private(set) var count = 0
        var codingPath: [any CodingKey] { path.map(PathKey.init(stringValue:)) }

        init(path: [String], found: Found) {
            self.path = path
            self.found = found
        }

        /// The next item's path; every encode takes one place in the array.
        private mutating func next() -> [String] {
            count += 1
            return path + [String(count - 1)]
        }

        mutating func encodeNil() throws { _ = next() }
        mutating func encode<T: Encodable>(_ value: T) throws { try PlaceFinder.visit(value, at: next(), found) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(Keyed<NestedKey>(path: next(), found: found))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(path: next(), found: found) }

        mutating func superEncoder() -> any Encoder { PlaceFinder(path: next(), found: found) }
    }

    private struct Single: SingleValueEncodingContainer {
        let path: [String]
        let found: Found
        var codingPath: [any CodingKey] { path.map(PathKey.init(stringValue:)) }

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws { try PlaceFinder.visit(value, at: path, found) }
    }
}
