import Operations

/// A shown screen's way out: closed once, either by the operation when it is done with it or by
/// the launch's cancellation — so a cancelled operation's screen does not outlive it.
final class ScreenLifetime: Sendable {
    private let dismiss: @Sendable () -> Void
    private let closed = OnceFlag()
    private let registration: LockedState<CancellationRegistration?>

    /// Starts watching `cancellation` for the screen that `dismiss` closes.
    init(dismiss: @escaping @Sendable () -> Void, cancellation: CancellationToken?) {
        self.dismiss = dismiss
        self.registration = LockedState(nil)
        guard let cancellation else { return }
        let registration = cancellation.onCancel { [weak self] in self?.close() }
        self.registration.withLock { $0 = registration }
    }

    /// Closes the screen unless it is closed already.
    func close() {
        guard closed.claim() else { return }
        registration.withLock { $0 }?.cancel()
        dismiss()
    }
}
