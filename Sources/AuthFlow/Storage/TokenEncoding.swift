import Foundation

/// How a ``LocalStorage`` turns a token into bytes and back: JSON with sorted keys and ISO-8601
/// dates. The file store and the Keychain store share it, so a token reads the same wherever it
/// was kept, and a failure names the place, never the token.
enum TokenEncoding {
    /// The JSON of `value`, bound for `place`.
    /// - Throws: ``LocalStorageError/unwritable(path:reason:)`` when it cannot be encoded.
    static func encode(_ value: some Encodable, for place: String) throws(LocalStorageError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            return try encoder.encode(value)
        } catch {
            throw .unwritable(path: place, reason: "the token could not be encoded")
        }
    }

    /// The token of `type` that `data`, read at `place`, holds.
    /// - Throws: ``LocalStorageError/corrupt(path:)`` when the bytes are not one.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, at place: String
    ) throws(LocalStorageError) -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Value.self, from: data)
        } catch {
            throw .corrupt(path: place)
        }
    }
}
