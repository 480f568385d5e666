import Foundation
import Operations

// The `Encoder` and containers of ``JSONStreamEncoder``: each checks with the stream that it is
// written in order, then writes. Once the stream gave up, every write does nothing and the
// journal encodes the value again with ``JSONValueEncoder``.

/// Where one value goes (the top level, a member, an item); what it holds so far is the
/// stream's to keep (``JSONStreamEncoder/content(of:)``).
///
/// A struct of three words, which an `any Encoder` holds without a box: as a class, each value
/// encoded (the top level, and every nested one) allocated its encoder.
struct SlotEncoder: Encoder {
    enum Content: Equatable {
        case empty
        case single
        case container(Int, isObject: Bool)
    }

    let stream: JSONStreamEncoder
    let slot: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// What the slot holds so far.
    var content: Content { stream.content(of: slot) }

    init(stream: JSONStreamEncoder, slot: Int, codingPath: [any CodingKey]) {
        self.stream = stream
        self.slot = slot
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            StreamKeyedContainer<Key>(
                stream: stream, frame: stream.open(self, asObject: true), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(stream: stream, frame: stream.open(self, asObject: false), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(slot: self)
    }
}

private struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: JSONStreamEncoder
    /// The object's frame; 0 for one that could not be opened in order.
    let frame: Int
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        if stream.key(key.stringValue, in: frame) { stream.output.append("null") }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if stream.key(key.stringValue, in: frame) { stream.output.append(value ? "true" : "false") }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if stream.key(key.stringValue, in: frame) { stream.output.string(value) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws { stream.giveUp() }
    mutating func encode(_ value: Float, forKey key: Key) throws { stream.giveUp() }
    mutating func encode(_ value: Int, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { integer(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { integer(UInt64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { integer(UInt64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { integer(UInt64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { integer(UInt64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { integer(value, key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if stream.key(key.stringValue, in: frame) { try stream.nested(value, codingPath: codingPath + [key]) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = stream.key(key.stringValue, in: frame) ? stream.openNested(asObject: true) : 0
        return KeyedEncodingContainer(
            StreamKeyedContainer<NestedKey>(stream: stream, frame: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = stream.key(key.stringValue, in: frame) ? stream.openNested(asObject: false) : 0
        return StreamUnkeyedContainer(stream: stream, frame: nested, codingPath: codingPath + [key])
    }

    // `JSONEncoder` writes a superclass's value when the encoding ends, wherever the subclass
    // was by then: the tree's job.
    mutating func superEncoder() -> any Encoder {
        stream.giveUp()
        return SlotEncoder(stream: stream, slot: 0, codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        stream.giveUp()
        return SlotEncoder(stream: stream, slot: 0, codingPath: codingPath + [key])
    }

    private func integer(_ value: Int, _ key: Key) {
        if stream.key(key.stringValue, in: frame) { stream.output.integer(value) }
    }
    private func integer(_ value: Int64, _ key: Key) {
        if stream.key(key.stringValue, in: frame) { stream.output.integer(value) }
    }
    private func integer(_ value: UInt64, _ key: Key) {
        if stream.key(key.stringValue, in: frame) { stream.output.integer(value) }
    }
}

private struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let stream: JSONStreamEncoder
    /// The array's frame; 0 for one that could not be opened in order.
    let frame: Int
    let codingPath: [any CodingKey]
    /// Items encoded through this container (a copy counts its own).
    private(set) var count = 0

    init(stream: JSONStreamEncoder, frame: Int, codingPath: [any CodingKey]) {
        self.stream = stream
        self.frame = frame
        self.codingPath = codingPath
    }

    /// Starts the next item; false when the stream gave up.
    private mutating func next() -> Bool {
        count += 1
        return stream.item(in: frame)
    }

    mutating func encodeNil() throws { if next() { stream.output.append("null") } }
    mutating func encode(_ value: Bool) throws { if next() { stream.output.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { if next() { stream.output.string(value) } }
    mutating func encode(_ value: Double) throws { stream.giveUp() }
    mutating func encode(_ value: Float) throws { stream.giveUp() }
    mutating func encode(_ value: Int) throws { if next() { stream.output.integer(value) } }
    mutating func encode(_ value: Int8) throws { if next() { stream.output.integer(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { if next() { stream.output.integer(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { if next() { stream.output.integer(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { if next() { stream.output.integer(value) } }
    mutating func encode(_ value: UInt) throws { if next() { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { if next() { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt16) throws { if next() { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt32) throws { if next() { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt64) throws { if next() { stream.output.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if next() { try stream.nested(value, codingPath: codingPath) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = next() ? stream.openNested(asObject: true) : 0
        return KeyedEncodingContainer(
            StreamKeyedContainer<NestedKey>(stream: stream, frame: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = next() ? stream.openNested(asObject: false) : 0
        return StreamUnkeyedContainer(stream: stream, frame: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        stream.giveUp()
        return SlotEncoder(stream: stream, slot: 0, codingPath: codingPath)
    }
}

private struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let slot: SlotEncoder
    var codingPath: [any CodingKey] { slot.codingPath }
    private var stream: JSONStreamEncoder { slot.stream }

    init(slot: SlotEncoder) {
        self.slot = slot
    }

    mutating func encodeNil() throws { if stream.fill(slot) { stream.output.append("null") } }
    mutating func encode(_ value: Bool) throws {
        if stream.fill(slot) { stream.output.append(value ? "true" : "false") }
    }
    mutating func encode(_ value: String) throws { if stream.fill(slot) { stream.output.string(value) } }
    mutating func encode(_ value: Double) throws { stream.giveUp() }
    mutating func encode(_ value: Float) throws { stream.giveUp() }
    mutating func encode(_ value: Int) throws { if stream.fill(slot) { stream.output.integer(value) } }
    mutating func encode(_ value: Int8) throws { if stream.fill(slot) { stream.output.integer(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { if stream.fill(slot) { stream.output.integer(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { if stream.fill(slot) { stream.output.integer(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { if stream.fill(slot) { stream.output.integer(value) } }
    mutating func encode(_ value: UInt) throws { if stream.fill(slot) { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { if stream.fill(slot) { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt16) throws { if stream.fill(slot) { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt32) throws { if stream.fill(slot) { stream.output.integer(UInt64(value)) } }
    mutating func encode(_ value: UInt64) throws { if stream.fill(slot) { stream.output.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try stream.encodeValue(value, into: slot)
    }
}
