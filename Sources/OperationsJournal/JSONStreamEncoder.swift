import Foundation
import Operations

/// Writes a step value's JSON straight into bytes while its `Encodable` conformance runs, for
/// the journal's buffered appends.
///
/// ``JSONValueEncoder`` builds a tree first (an object per container, arrays of keys and values,
/// a string per integer) and then writes it: about half of a buffered append went into
/// allocating and freeing that tree. Most values never need it: a synthesized conformance
/// encodes each container once, key after key, nested containers one at a time. This encoder
/// writes such values as they come, through one reusable buffer, and gives up — reporting
/// ``Outcome/unsupported`` — on anything the tree exists for: a key encoded twice, a container
/// written to after a later one was opened, super-encoders, and what only `JSONEncoder` writes
/// (`Date`, `Data`, `URL`, `Decimal`, floating point). The journal then encodes the value with
/// ``JSONValueEncoder`` as before, so every value is written with the same bytes either way.
///
/// Secrets are found at the same places as ``JSONValueEncoder`` looks for them: the value itself
/// and every nested value that goes through its own conformance.
///
/// One encoder serves one journal, under its lock; ``bytes`` holds the last value written.
final class JSONStreamEncoder {
    /// What encoding a value came to.
    enum Outcome: Equatable {
        /// ``bytes`` holds the value's JSON; `holdsSecret` says whether it is or holds a
        /// ``JournalConfidential`` value.
        case written(holdsSecret: Bool)
        /// The value needs ``JSONValueEncoder`` (or `JSONEncoder`), or its conformance threw.
        case unsupported
    }

    /// An object or array being written, innermost last.
    private struct Frame {
        let id: Int
        let isObject: Bool
        /// Where this object's keys start in ``keys``.
        let keysStart: Int
        var isEmpty = true
    }

    // Unchecked exclusivity: the encoder is used by one encoding at a time, under the journal's
    // lock, and the run-time checks cost as much as the writes.
    /// The JSON written so far; the containers write values into it once the stream let them.
    @exclusivity(unchecked) var output = JSONLineWriter(capacity: 256)
    @exclusivity(unchecked) private var frames = PlainStack<Frame>()
    /// Where the keys of the open objects were written, to find a key encoded twice.
    @exclusivity(unchecked) private var keys = PlainStack<WrittenKey>()
    /// The keys that are not plain ASCII, as strings (see ``WrittenKey``).
    @exclusivity(unchecked) private var unusualKeys: [String] = []
    /// The slot whose value comes next; 0 when the next write goes into an open container.
    @exclusivity(unchecked) private var pending = 0
    /// What each slot holds so far, by its id (frames take ids too, and leave theirs empty).
    @exclusivity(unchecked) private var contents = PlainStack<SlotEncoder.Content>()
    @exclusivity(unchecked) private var lastID = 0
    @exclusivity(unchecked) private var holdsSecret = false
    @exclusivity(unchecked) private var failed = false

    /// The JSON of the last value written.
    var bytes: [UInt8] { output.bytes }

    /// Encodes `value` into ``bytes``.
    ///
    /// - Parameters:
    ///   - value: The value; its type must be none of those only `JSONEncoder` writes (the
    ///     caller checks the top level, this encoder everything inside).
    ///   - confidential: Whether the value itself is ``JournalConfidential``.
    /// - Returns: Whether the value was written, and whether it holds a secret.
    func encode(_ value: any Encodable, confidential: Bool) -> Outcome {
        encode(confidential: confidential) { try value.encode(to: $0) }
    }

    /// Encodes the value `encode` encodes with the encoder it is given into ``bytes``; see
    /// ``encode(_:confidential:)``.
    func encode(confidential: Bool, _ encode: (any Encoder) throws -> Void) -> Outcome {
        output.removeAll()
        frames.truncate(to: 0)
        keys.truncate(to: 0)
        unusualKeys.removeAll(keepingCapacity: true)
        lastID = 0
        contents.truncate(to: 0)
        // Slot 0 is the one no write may fill (a super-encoder's, after the stream gave up).
        contents.push(.empty)
        holdsSecret = confidential
        failed = false
        let root = SlotEncoder(stream: self, slot: newID(), codingPath: [])
        pending = root.slot
        do {
            try encode(root)
        } catch {
            return .unsupported
        }
        closeFrames(downTo: 0)
        // A value that encoded nothing: `JSONEncoder` refuses it, and the journal says why.
        guard !failed, root.content != .empty else { return .unsupported }
        return .written(holdsSecret: holdsSecret)
    }

    /// Forgets the last value's bytes, overwriting them first: a secret's clear form is not
    /// left behind in the buffer.
    func erase() {
        output.overwriteWithZeros()
        output.removeAll()
    }

    // MARK: - Writing, for the containers

    /// What `slot` holds so far; empty for a slot of an earlier value.
    func content(of slot: Int) -> SlotEncoder.Content {
        slot < contents.count ? contents[slot] : .empty
    }

    /// Gives up on this value: the journal encodes it with ``JSONValueEncoder``.
    func giveUp() {
        failed = true
    }

    func noteSecret() {
        holdsSecret = true
    }

    /// Opens an object or array as the value of `slot`; its frame id, or 0 when that cannot be
    /// done in order.
    func open(_ slot: SlotEncoder, asObject: Bool) -> Int {
        switch slot.content {
        case .container(let id, let isObject) where isObject == asObject && isOpen(id):
            // Asked again for the same kind of container: the same one, as with `JSONEncoder`.
            return id
        case .empty where !failed && pending == slot.slot:
            pending = 0
            let id = pushFrame(asObject: asObject)
            contents[slot.slot] = .container(id, isObject: asObject)
            return id
        default:
            giveUp()
            return 0
        }
    }

    /// Claims `slot` for a single value; false when it cannot be written in order.
    func fill(_ slot: SlotEncoder) -> Bool {
        guard !failed, pending == slot.slot, slot.content == .empty else {
            giveUp()
            return false
        }
        pending = 0
        contents[slot.slot] = .single
        return true
    }

    /// Starts the member `key` of the object `frame`; false when that cannot be done in order
    /// or the key was encoded before.
    func key(_ key: String, in frame: Int) -> Bool {
        guard enter(frame) else { return false }
        let start = frames[frames.count - 1].keysStart
        let written = WrittenKey(output.member(key, separated: !startMember()), unusual: unusualKeys.count)
        // A key encoded twice keeps its first place and its last value: only the tree can do
        // that. Written already, which does no harm: giving up drops the bytes.
        for index in start..<keys.count where isSame(keys[index], written, key) {
            giveUp()
            return false
        }
        if !written.name.isPlainASCII { unusualKeys.append(key) }
        keys.push(written)
        return true
    }

    /// Whether the key written before as `earlier` is the same string as `key`, just written
    /// as `written`: by their bytes when both are plain ASCII, or else as strings, which Swift
    /// compares by canonical equivalence ("é" is "e" and a combining accent, and the Kelvin
    /// sign is "K").
    private func isSame(_ earlier: WrittenKey, _ written: WrittenKey, _ key: String) -> Bool {
        if earlier.name.isPlainASCII && written.name.isPlainASCII {
            return earlier.name.count == written.name.count
                && output.bytesEqual(at: earlier.name.start, written.name.start, length: written.name.count)
        }
        return string(of: earlier) == key
    }

    /// The key `written` as a string.
    private func string(of written: WrittenKey) -> String {
        guard written.name.isPlainASCII else { return unusualKeys[written.unusual] }
        return output.withBytes { bytes in
            String(decoding: bytes[written.name.start..<written.name.start + written.name.count], as: UTF8.self)
        }
    }

    /// Starts the next item of the array `frame`; false when that cannot be done in order.
    func item(in frame: Int) -> Bool {
        guard enter(frame) else { return false }
        if !startMember() { output.byte(UInt8(ascii: ",")) }
        return true
    }

    /// Opens an object or array as the member just started with ``key(_:in:)`` or ``item(in:)``.
    func openNested(asObject: Bool) -> Int {
        pushFrame(asObject: asObject)
    }

    /// Encodes a value through its own conformance as the member or item just started: plain
    /// values directly, anything else through a slot of its own, `{}` when it encodes nothing
    /// (what `JSONEncoder` writes).
    func nested<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        let slot = SlotEncoder(stream: self, slot: newID(), codingPath: codingPath)
        let depth = frames.count
        pending = slot.slot
        try encodeValue(value, into: slot)
        guard !failed else { return }
        if slot.content == .empty {
            pending = 0
            output.append("{}")
        }
        closeFrames(downTo: depth)
    }

    /// Encodes `value` into `slot` as ``JSONValueEncoder`` does: the same plain types written
    /// directly, the same ones left to `JSONEncoder`, secrets looked for at the same places.
    func encodeValue<T: Encodable>(_ value: T, into slot: SlotEncoder) throws {
        switch value {
        case let text as String: if fill(slot) { output.string(text) }
        case let flag as Bool: if fill(slot) { output.append(flag ? "true" : "false") }
        case let number as Int: if fill(slot) { output.integer(number) }
        case is Date, is Data, is URL, is Decimal, is Double, is Float: giveUp()
        default:
            if value is any JournalConfidential { holdsSecret = true }
            try value.encode(to: slot)
        }
    }

    // MARK: - Frames

    /// A key of an open object: where its name is in ``output``, and, when it is not plain
    /// ASCII, its index in ``unusualKeys``. Keys are compared by their bytes where that is
    /// exact, so the common key costs no string kept, compared or destroyed.
    private struct WrittenKey {
        let name: JSONLineWriter.WrittenName
        let unusual: Int

        init(_ name: JSONLineWriter.WrittenName, unusual: Int) {
            self.name = name
            self.unusual = unusual
        }
    }

    private func newID() -> Int {
        lastID += 1
        contents.push(.empty)
        return lastID
    }

    private func pushFrame(asObject: Bool) -> Int {
        let id = newID()
        frames.push(Frame(id: id, isObject: asObject, keysStart: keys.count))
        output.byte(asObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return id
    }

    private func isOpen(_ id: Int) -> Bool {
        for index in 0..<frames.count where frames[index].id == id { return true }
        return false
    }

    /// Makes `frame` the innermost open container: the containers opened inside it are done.
    /// False when it is closed already (written to after a container beside it was opened).
    private func enter(_ frame: Int) -> Bool {
        guard !failed, pending == 0, let index = innermostIndex(of: frame) else {
            giveUp()
            return false
        }
        closeFrames(downTo: index + 1)
        return true
    }

    /// Where `frame` is among the open frames, searched from the innermost.
    private func innermostIndex(of frame: Int) -> Int? {
        var index = frames.count
        while index > 0 {
            index &-= 1
            if frames[index].id == frame { return index }
        }
        return nil
    }

    /// Notes a member or item of the innermost container; whether it is the first, which
    /// needs no comma before it.
    private func startMember() -> Bool {
        guard frames[frames.count - 1].isEmpty else { return false }
        frames[frames.count - 1].isEmpty = false
        return true
    }

    private func closeFrames(downTo depth: Int) {
        while frames.count > depth {
            let frame = frames.pop()
            if frame.isObject { keys.truncate(to: frame.keysStart) }
            output.byte(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }
}
