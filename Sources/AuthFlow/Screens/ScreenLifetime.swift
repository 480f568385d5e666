import Operations

/// A shown screen's way out, closed once: by the operation when it is done with it, or by the
/// launch's cancellation — so a cancelled operation's screen does not outlive it.
final class ScreenLifetime: Sendable {
    private let dismiss: @Sendable () -> Void
    private let viewModel: Participant
    private let trace: TraceScope?
    private let closed = OnceFlag()
    private let registration: LockedState<CancellationRegistration?>

    /// Starts watching `cancellation` for the screen that `dismiss` closes, showing `viewModel`.
    init(
        dismiss: @escaping @Sendable () -> Void, cancellation: CancellationToken?, viewModel: Participant,
        trace: TraceScope?
    ) {
        self.dismiss = dismiss
        self.viewModel = viewModel
        self.trace = trace
        self.registration = LockedState(nil)
        guard let cancellation else { return }
        let registration = cancellation.onCancel { [weak self] in self?.dismissOnce() }
        self.registration.withLock { $0 = registration }
    }

    /// The operation is done with the screen: dismissed through the router, the view model let go.
    func close() {
        trace?.message(to: .router, "dismiss()")
        dismissOnce()
        trace?.release(viewModel)
    }

    private func dismissOnce() {
        guard closed.claim() else { return }
        registration.withLock { $0 }?.cancel()
        dismiss()
    }
}
