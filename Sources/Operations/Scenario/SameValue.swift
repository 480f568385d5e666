/// Whether two launch values are provably the same request's value.
///
/// A failure handler that relaunches a step with the value it already had repeats the same
/// request, which must keep its idempotency key (see ``IdempotencyKey``). Values are compared
/// only when their type is `Equatable`; anything else counts as a new value.
enum SameValue {
    /// `true` when both values are of one `Equatable` type and equal.
    static func holds<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
        guard let equatable = lhs as? any Equatable else { return false }
        return equatable.isEqual(to: rhs)
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
