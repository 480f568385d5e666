public import Operations

/// What "send the code again" needs: the attempt's phone token, and the backend's last answer,
/// whose `resendAfter` says how long to wait before asking.
public struct CodeResend: Sendable, Hashable, Codable {
    /// The attempt's phone token.
    public let phoneToken: PhoneToken
    /// The backend's answer to the last send.
    public let lastDelivery: CodeDelivery

    /// Creates the request.
    public init(phoneToken: PhoneToken, lastDelivery: CodeDelivery) {
        self.phoneToken = phoneToken
        self.lastDelivery = lastDelivery
    }

    /// How long the backend asked to wait before the next send.
    public var resendDelay: Duration { .milliseconds(Int64((lastDelivery.resendAfter * 1_000).rounded())) }
}

/// Sends the SMS code again: a new SMS, so a side effect, keyed like any send.
public final class ResendCodeOp: Op {
    private let api: any AuthAPI

    /// Creates the operation.
    ///
    /// - Parameter api: The backend.
    public init(api: any AuthAPI) { self.api = api }

    /// Sends the code to the input's phone token.
    public func launch(_ context: OpContext<CodeResend>, onFinish: @escaping OnFinish<CodeDelivery>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let call = AuthCall(context).request("resend")
        api.sendCode(phoneToken: context.input.phoneToken, call: call) { sent in
            completion.finish(sent.mapError { $0 })
        }
    }
}
