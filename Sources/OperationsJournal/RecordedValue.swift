import Foundation
import Operations

/// A step input or output as the journal holds it: JSON, sealed JSON, JSON with confidential
/// fields sealed or withheld alone, or the reason it could not be recorded.
enum RecordedValue: Sendable, Hashable {
    /// The value's JSON in one form for every equal value (``ComparableJSON``), so that equal
    /// values are equal here.
    case json(Data)
    /// The base64 of what a ``JournalSealer`` made of the value's JSON.
    case sealed(String)
    /// The value in clear with markers where its confidential values are (``ConfidentialFields``).
    indirect case withConfidentialFields(ConfidentialFields.Recorded)
    case notRecorded(String)

    /// The value that `fields` name in a line, read by the decoder that reads the line's other
    /// fields, so the line is parsed once; `nil` when the line has none of them.
    ///
    /// - Throws: ``JournalReader/Inconsistency`` when a field is there but not of its form.
    init?(
        _ fields: JournalFormat.ValueFields, in line: KeyedDecodingContainer<ComparableJSON.AnyKey>
    ) throws(JournalReader.Inconsistency) {
        /// The field named `name`, which is there, as a `T`.
        func read<T: Decodable>(_ name: String, as type: T.Type) throws(JournalReader.Inconsistency) -> T {
            guard let value = try? line.decode(type, forKey: ComparableJSON.AnyKey(stringValue: name)) else {
                throw .init(text: "the field \"\(name)\" is not valid")
            }
            return value
        }
        let has = { (name: String) in line.contains(ComparableJSON.AnyKey(stringValue: name)) }
        // A recorded value may be null (`Void`, `nil`): presence is the key's.
        if has(fields.clear) {
            self = .json(Data(try read(fields.clear, as: ComparableJSON.Decoded.self).bytes))
        } else if has(fields.sealed) {
            self = .sealed(try read(fields.sealed, as: String.self))
        } else if has(fields.withConfidentialFields) {
            let value = ComparableJSON.AnyKey(stringValue: ConfidentialFields.Key.value)
            let confidential = ComparableJSON.AnyKey(stringValue: ConfidentialFields.Key.confidential)
            guard
                let object = try? line.nestedContainer(
                    keyedBy: ComparableJSON.AnyKey.self,
                    forKey: ComparableJSON.AnyKey(stringValue: fields.withConfidentialFields)),
                object.contains(value), let json = try? object.decode(ComparableJSON.Decoded.self, forKey: value),
                let places = try? object.decode([String].self, forKey: confidential)
            else { throw .init(text: "the field \"\(fields.withConfidentialFields)\" is not valid") }
            self = .withConfidentialFields(ConfidentialFields.Recorded(value: Data(json.bytes), confidential: places))
        } else if has(fields.notRecorded) {
            self = .notRecorded(try read(fields.notRecorded, as: String.self))
        } else {
            return nil
        }
    }

    /// The JSON of `value` when the journal would record it in clear: `Encodable`, and holding
    /// nothing confidential (``JournalConfidential``, ``ConfidentialFields``); `nil` otherwise.
    static func clearJSON(of value: Any) -> Data? {
        guard let encodable = value as? any Encodable, !(value is any JournalConfidential),
            let written = try? ValueJSON.write(encodable, sealer: nil), written.confidential.isEmpty
        else { return nil }
        return Data(written.json)
    }

    /// Why the value cannot be rebuilt from the journal whatever the sealer: it was not recorded,
    /// or a confidential field of it was withheld; `nil` when it can.
    var notKept: String? {
        switch self {
        case .json, .sealed: nil
        case .notRecorded(let reason): reason
        case .withConfidentialFields(let recorded): recorded.withheld
        }
    }

    /// Whether everything sealed in the value opens with `sealer`: what a resume will ask of it.
    func opens(with sealer: any JournalSealer) -> Bool {
        switch self {
        case .json, .notRecorded:
            return true
        case .sealed(let text):
            guard let sealed = Data(base64Encoded: text) else { return false }
            return (try? sealer.open(Array(sealed))) != nil
        case .withConfidentialFields(let recorded):
            do {
                _ = try recorded.opened(with: sealer, step: StepAddress(path: []), type: "")
                return true
            } catch {
                return false
            }
        }
    }

    /// The value as `T`, or `nil` when it was not recorded, was sealed and no sealer is given,
    /// had a confidential field withheld, or `T` cannot be decoded at all (the step is then
    /// launched again rather than replayed).
    ///
    /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when a recorded value does
    ///   not decode as `T` — the journal belongs to a different version of the scenario — or a
    ///   sealed one does not open with `sealer`.
    func decode<T>(as type: T.Type, step: StepAddress, sealer: (any JournalSealer)? = nil) throws(JournalError) -> T? {
        // `Void` is not `Decodable`, yet steps that finish with nothing are common; it is
        // recorded as `null`.
        if case .json = self, T.self == Void.self { return () as? T }
        guard let decodable = T.self as? any Decodable.Type else { return nil }
        let data: Data
        switch self {
        case .notRecorded: return nil
        case .json(let json):
            data = json
        case .sealed(let text):
            guard let sealer else { return nil }
            guard let sealed = Data(base64Encoded: text), let opened = try? sealer.open(Array(sealed)) else {
                throw .valueNotReadable(
                    step: step, type: String(describing: T.self),
                    reason: "it was sealed with another key, or is damaged")
            }
            data = Data(opened)
        case .withConfidentialFields(let recorded):
            guard let json = try recorded.opened(with: sealer, step: step, type: String(describing: T.self)) else {
                return nil
            }
            data = json
        }
        do {
            return try Self.decode(decodable, from: data) as? T
        } catch {
            throw .valueNotReadable(step: step, type: String(describing: T.self), reason: Self.explain(error))
        }
    }

    private static func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D {
        try JSONDecoder().decode(type, from: data)
    }

    /// A decoding error in a sentence, without Foundation's coding-path dump.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "the field \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context): return "\(path(context)) is not \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) is null where \(type) was expected"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)) is not valid"
        @unknown default: return "not valid"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty
            ? "the value" : "the field \"" + context.codingPath.map(\.stringValue).joined(separator: ".") + "\""
    }
}
