import Synchronization

/// A flag that lets exactly one caller through, for callbacks that may be called twice.
final class OnceFlag: Sendable {
    private let taken = Atomic<Bool>(false)

    /// `true` for the first caller only.
    func claim() -> Bool {
        !taken.exchange(true, ordering: .acquiringAndReleasing)
    }
}
