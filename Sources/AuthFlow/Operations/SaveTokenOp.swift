public import Operations

/// Writes the auth token to ``LocalStorage``: the last step of sign-in. It returns the token, so
/// the scenario can finish with it.
///
/// Idempotent (``IdempotentOp``): writing the same token again leaves the same file. Its effect
/// lives outside the journal — the file may be deleted after the run — so a resumed run launches
/// it again instead of replaying "saved" for a file that may no longer exist.
public final class SaveTokenOp: IdempotentOp {
    private let storage: any LocalStorage

    /// Creates the operation; use ``AuthFlowFactory/makeSaveTokenOp()``.
    public init(storage: any LocalStorage) {
        self.storage = storage
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<AuthToken>, onFinish: @escaping OnFinish<AuthToken>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        // Already finished as cancelled or timed out: the caller was told nothing was saved.
        guard !completion.isFinished else { return }
        let trace = completion.trace
        trace?.declare(.localStorage)
        trace?.message(to: .localStorage, "saveAuthToken(\(context.input.redacted))")
        let saved = Result { try storage.saveAuthToken(context.input) }
        trace?.reply(from: .localStorage, saved.replyLabel { "saved" })
        completion.finish(saved.map { context.input })
    }
}
