import Synchronization

/// A flag that lets exactly one caller through, for callbacks that may be called twice.
package final class OnceFlag: Sendable {
    private let taken = Atomic<Bool>(false)

    package init() {}

    /// `true` for the first caller only.
    package func claim() -> Bool {
        !taken.exchange(true, ordering: .acquiringAndReleasing)
    }
}
