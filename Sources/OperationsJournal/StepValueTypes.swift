import Foundation
import Operations

/// What a journal learned about the types of the step values it recorded, so that a value of a
/// type it met before skips the dynamic casts that sort it.
///
/// Sorting a step value takes nine casts from its existential (`String`? `Int`? `Bool`?
/// `Encodable`? confidential? `Date`, `Data`, `URL`, `Decimal`?), each a walk through the
/// runtime's conformance tables: about a quarter of a buffered append. A scenario's steps pass
/// a handful of types, over and over. Only the types for which every one of those casts is
/// decided by the type alone are remembered: structs and enums. A class instance may bridge to
/// a `String` or an `Int` depending on its value (`NSNumber`); an `Optional` or an
/// `AnyHashable` casts as what it wraps.
struct StepValueTypes {
    /// What sorting a value of a type found.
    struct Traits {
        /// Whether the type is ``JournalConfidential``.
        let confidential: Bool
        /// Whether it is one of the types only `JSONEncoder` writes (`Date`, `Data`, `URL`,
        /// `Decimal`).
        let writtenByFoundation: Bool
    }

    /// A remembered type: an `Encodable` struct or enum that is not a `String`, `Int` or `Bool`.
    ///
    /// Its values reach their conformance through the one found when the type was learned: a
    /// cast to the type itself, several times cheaper than looking the conformance up.
    struct Known {
        let traits: Traits
        /// Encodes a value of the type.
        let encode: (any Sendable, any Encoder) throws -> Void
        /// The value as `Encodable` (boxed anew), for the encoders that take one.
        let encodable: (any Sendable) -> any Encodable
    }

    /// Types beyond this many are sorted each time: a run passes far fewer, and the list stays
    /// quick to search.
    static let capacity = 32

    private var types: [ObjectIdentifier] = []
    private var known: [Known] = []

    /// What was learned about `type`, if it was.
    func lookUp(_ type: any Any.Type) -> Known? {
        let id = ObjectIdentifier(type)
        for index in types.indices where types[index] == id { return known[index] }
        return nil
    }

    /// Remembers the traits of the type of `value`, unless casts of its values may depend on
    /// more than the type.
    mutating func learn(_ value: any Encodable, _ traits: Traits) {
        let type = type(of: value)
        guard types.count < Self.capacity, !(type is AnyClass), !(type is any OptionalValue.Type),
            type != AnyHashable.self
        else { return }
        types.append(ObjectIdentifier(type))
        known.append(Self.known(like: value, traits))
    }

    private static func known<Value: Encodable>(like value: Value, _ traits: Traits) -> Known {
        Known(
            traits: traits, encode: { try cast($0, to: Value.self).encode(to: $1) },
            encodable: { cast($0, to: Value.self) })
    }

    /// `value` as the type it was remembered as.
    ///
    /// Opened from its existential first: a cast from the opened type to the same type is the
    /// runtime's first check, where a cast from the existential tried the target's own kind of
    /// cast, failed, and only then unwrapped the existential and cast again.
    private static func cast<Opened, Value>(_ value: Opened, to type: Value.Type) -> Value {
        value as! Value
    }
}

/// `Optional`, told apart from the types it wraps.
private protocol OptionalValue {}
extension Optional: OptionalValue {}
