public import Operations

/// Requests the SMS code, lets the user enter it, and exchanges it for the auth token.
///
/// Parameterised by the phone token in its ``CodeRequest``; it reads nothing from storage. A
/// wrong code ends the launch with ``AuthError/invalidCode(attemptsLeft:)``: the scenario decides
/// whether to launch it again (asking again, without sending another SMS).
///
/// It has side effects: `code/send` sends an SMS and `code/verify` spends one of the number's
/// attempts, so relaunching it blindly after a lost answer sends another SMS. Each request carries
/// its own key, derived from the launch's ``OpContext/idempotencyKey`` (`"send"`, and `"verify:"`
/// with the code, as a verification of another code is another request): a retry or rerun of the
/// launch gets the backend's first answers instead (one SMS, one verification of each code), and
/// the operation goes on to ask for the code as after a first send. A resend
/// the person asks for on the screen goes without a key, because it must send a new SMS.
public final class CodeOp: Op {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeCodeOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<CodeRequest>, onFinish: @escaping OnFinish<AuthToken>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        // A rerun asks afresh: the earlier run's reason ("Wrong code.") is not this ask's.
        let request = context.scope?.resumesEarlierRun == true ? context.input.withoutNotice : context.input
        CodeEntry(api: api, screens: screens).run(request, call: AuthCall(context), trace: completion.trace) {
            completion.finish($0)
        }
    }
}
