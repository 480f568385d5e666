/// The line between the app and the store: what a request meets on the way, and who hears that
/// the store acted. The store works without one; a test puts one in to fail requests as a real
/// network would (the fault explorer's adapter in Sources/checkout/CheckoutExploration.swift).
public protocol StoreLink: Sendable {
    /// What happens to a request before it reaches the store; `nil` to deliver it.
    ///
    /// - Parameter request: `stock`, `reserve`, `charge`, `confirm` or `release`.
    func fault(for request: String) -> StoreLinkFault?
    /// The store acted on a request (reserved, charged, confirmed, released), not answered it from a key.
    ///
    /// - Parameter request: `reserve`, `charge`, `confirm` or `release`.
    func acted(_ request: String)
}

/// How a request fails on the way.
public enum StoreLinkFault: Sendable, Hashable {
    /// It never reaches the store: nothing acted.
    case unreachable
    /// The store acts, and its answer is lost on the way back.
    case answerLost
}
