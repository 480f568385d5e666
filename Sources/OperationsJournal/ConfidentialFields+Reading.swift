import Foundation
import Operations

extension ConfidentialFields {
    /// A value with confidential fields as a journal line holds it: the clear value with its
    /// markers, and the places of the markers.
    struct Recorded: Sendable, Hashable, Decodable {
        /// The value, a marker at each place of ``confidential``.
        let value: JSONValue
        /// The JSON Pointers of the confidential values inside ``value``.
        let confidential: [String]

        /// Why the value cannot be rebuilt whatever the sealer: the first withheld field, in a
        /// sentence; `nil` when every field was sealed.
        var withheld: String? {
            for place in confidential {
                guard case .object(let marker)? = Self.value(at: place, in: value),
                    case .string(let reason)? = marker[Key.withheld]
                else { continue }
                return "its confidential field \(place) was withheld (\(reason)), so the value cannot be rebuilt"
            }
            return nil
        }

        /// The value with every sealed field opened by `sealer` and put back in its place.
        ///
        /// - Returns: The whole value; `nil` when a field was withheld or no sealer is given
        ///   (the step is launched again).
        /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when a field does not
        ///   open with `sealer`, or a listed place holds no marker (the line is damaged).
        func opened(with sealer: (any JournalSealer)?, step: StepAddress, type: String) throws(JournalError)
            -> JSONValue?
        {
            var rebuilt = value
            for place in confidential {
                guard case .object(let marker)? = Self.value(at: place, in: value) else {
                    throw .valueNotReadable(
                        step: step, type: type,
                        reason: "the journal lists \(place) as confidential but has no value there")
                }
                if marker[Key.withheld] != nil { return nil }
                guard case .string(let text)? = marker[Key.sealed] else {
                    throw .valueNotReadable(
                        step: step, type: type,
                        reason: "the confidential field \(place) is neither sealed nor withheld")
                }
                guard let sealer else { return nil }
                guard let sealed = Data(base64Encoded: text), let opened = try? sealer.open(Array(sealed)),
                    let field = try? JSONDecoder().decode(JSONValue.self, from: Data(opened)),
                    let replaced = Self.replacing(at: Self.tokens(place)[...], in: rebuilt, with: field)
                else {
                    throw .valueNotReadable(
                        step: step, type: type,
                        reason: "its confidential field \(place) was sealed with another key, or is damaged")
                }
                rebuilt = replaced
            }
            return rebuilt
        }

        /// The tokens of a JSON Pointer (`/a~1b/0` is `a/b`, `0`); none for `""`, the whole value.
        static func tokens(_ pointer: String) -> [String] {
            pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
        }

        /// What the pointer names in `json`, if it names anything.
        static func value(at pointer: String, in json: JSONValue) -> JSONValue? {
            var current = json
            for token in tokens(pointer) {
                switch current {
                case .object(let members):
                    guard let member = members[token] else { return nil }
                    current = member
                case .array(let items):
                    guard let index = Int(token), items.indices.contains(index) else { return nil }
                    current = items[index]
                default:
                    return nil
                }
            }
            return current
        }

        /// `json` with the value at `tokens` replaced by `field`; `nil` when nothing is there.
        private static func replacing(at tokens: ArraySlice<String>, in json: JSONValue, with field: JSONValue)
            -> JSONValue?
        {
            guard let token = tokens.first else { return field }
            switch json {
            case .object(var members):
                guard let member = members[token],
                    let replaced = replacing(at: tokens.dropFirst(), in: member, with: field)
                else { return nil }
                members[token] = replaced
                return .object(members)
            case .array(var items):
                guard let index = Int(token), items.indices.contains(index),
                    let replaced = replacing(at: tokens.dropFirst(), in: items[index], with: field)
                else { return nil }
                items[index] = replaced
                return .array(items)
            default:
                return nil
            }
        }
    }
}
