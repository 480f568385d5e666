public import AuthFlow

/// The article's stateful variants, made from the same key services as the pure operations so
/// the diagrams and tests compare like with like. Not in the AuthFlow product: an app has no use
/// for operations that exist to show why the pure ones are better.
extension AuthFlowFactory {
    /// Sends the phone number and writes the phone token into storage: the article's stateful
    /// variant of `makePhoneOp()`, for the diagram comparison; has a side effect.
    public func makeStatefulPhoneOp() -> StatefulPhoneOp {
        StatefulPhoneOp(api: api, storage: storage, screens: screens)
    }

    /// Shows and accepts the terms for the phone token in storage and saves the new one: the
    /// article's stateful variant of `makeTermsOfUseOp()`, for the comparison; side effects.
    public func makeStatefulTermsOfUseOp() -> StatefulTermsOfUseOp {
        StatefulTermsOfUseOp(api: api, storage: storage, screens: screens)
    }

    /// Verifies the code for the phone token in storage and saves the auth token: the article's
    /// stateful variant of `makeCodeOp()`, for the comparison; side effects.
    public func makeStatefulCodeOp() -> StatefulCodeOp { StatefulCodeOp(api: api, storage: storage, screens: screens) }
}
