public import AuthFlow

/// The article's stateful variants, made from the same key services as the pure operations so
/// the diagrams and tests compare like with like. Not in the AuthFlow product: an app has no use
/// for operations that exist to show why the pure ones are better.
extension AuthFlowFactory {
    /// Sends the phone number and writes the phone token into `phoneTokens`: the article's
    /// stateful variant of `makePhoneOp()`, for the diagram comparison; has a side effect.
    public func makeStatefulPhoneOp(phoneTokens: any PhoneTokenStore) -> StatefulPhoneOp {
        StatefulPhoneOp(api: api, phoneTokens: phoneTokens, screens: screens)
    }

    /// Shows and accepts the terms for the phone token in `phoneTokens` and saves the new one:
    /// the article's stateful variant of `makeTermsOfUseOp()`, for the comparison; side effects.
    public func makeStatefulTermsOfUseOp(phoneTokens: any PhoneTokenStore) -> StatefulTermsOfUseOp {
        StatefulTermsOfUseOp(api: api, phoneTokens: phoneTokens, screens: screens)
    }

    /// Verifies the code for the phone token in `phoneTokens` and saves the auth token into the
    /// factory's storage: the article's stateful variant of `makeCodeOp()`, for the comparison;
    /// side effects.
    public func makeStatefulCodeOp(phoneTokens: any PhoneTokenStore) -> StatefulCodeOp {
        StatefulCodeOp(api: api, phoneTokens: phoneTokens, storage: storage, screens: screens)
    }
}
