import Foundation
import Operations

extension ConfidentialFields {
    /// A value with confidential fields as a journal line holds it: the clear value with its
    /// markers, and the places of the markers.
    struct Recorded: Sendable, Hashable {
        /// The value, a marker at each place of ``confidential``, as JSON with its keys sorted.
        let value: Data
        /// The JSON Pointers of the confidential values inside ``value``.
        let confidential: [String]

        /// Why the value cannot be rebuilt whatever the sealer: the first withheld field, in a
        /// sentence; `nil` when every field was sealed.
        var withheld: String? {
            guard let tree = try? JSONSerialization.jsonObject(with: value, options: .fragmentsAllowed) else {
                return nil
            }
            for place in confidential {
                guard let marker = Self.value(at: place, in: tree) as? [String: Any],
                    let reason = marker[Key.withheld] as? String
                else { continue }
                return "its confidential field \(place) was withheld (\(reason)), so the value cannot be rebuilt"
            }
            return nil
        }

        /// The value with every sealed field opened by `sealer` and put back in its place.
        ///
        /// - Returns: The whole value's JSON; `nil` when a field was withheld or no sealer is
        ///   given (the step is launched again).
        /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when a field does not
        ///   open with `sealer`, or a listed place holds no marker (the line is damaged).
        func opened(with sealer: (any JournalSealer)?, step: StepAddress, type: String) throws(JournalError)
            -> Data?
        {
            guard var rebuilt = try? JSONSerialization.jsonObject(with: value, options: .fragmentsAllowed) else {
                throw .valueNotReadable(step: step, type: type, reason: "not valid JSON")
            }
            let tree = rebuilt
            for place in confidential {
                guard let marker = Self.value(at: place, in: tree) as? [String: Any] else {
                    throw .valueNotReadable(
                        step: step, type: type,
                        reason: "the journal lists \(place) as confidential but has no value there")
                }
                if marker[Key.withheld] != nil { return nil }
                guard let text = marker[Key.sealed] as? String else {
                    throw .valueNotReadable(
                        step: step, type: type,
                        reason: "the confidential field \(place) is neither sealed nor withheld")
                }
                guard let sealer else { return nil }
                guard let sealed = Data(base64Encoded: text), let opened = try? sealer.open(Array(sealed)),
                    let field = try? JSONSerialization.jsonObject(with: Data(opened), options: .fragmentsAllowed),
                    let replaced = ConfidentialFields.replacing(at: Self.tokens(place)[...], in: rebuilt, with: field)
                else {
                    throw .valueNotReadable(
                        step: step, type: type,
                        reason: "its confidential field \(place) was sealed with another key, or is damaged")
                }
                rebuilt = replaced
            }
            let jsonOptions = ConfidentialFields.jsonOptions
            guard let json = try? JSONSerialization.data(withJSONObject: rebuilt, options: jsonOptions) else {
                throw .valueNotReadable(step: step, type: type, reason: "not valid JSON")
            }
            return json
        }

        /// The tokens of a JSON Pointer (`/a~1b/0` is `a/b`, `0`); none for `""`, the whole value.
        static func tokens(_ pointer: String) -> [String] {
            pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
        }

        /// What the pointer names in `json` (as `JSONSerialization` parses it), if anything.
        static func value(at pointer: String, in json: Any) -> Any? {
            var current = json
            for token in tokens(pointer) {
                if let members = current as? [String: Any] {
                    guard let member = members[token] else { return nil }
                    current = member
                } else if let items = current as? [Any] {
                    guard let index = Int(token), items.indices.contains(index) else { return nil }
                    current = items[index]
                } else {
                    return nil
                }
            }
            return current
        }
    }
}
