public import Foundation

/// The backend's answer to "send the SMS code".
public struct CodeDelivery: Sendable, Hashable, Codable {
    /// How long to wait before another code may be requested.
    public let resendAfter: TimeInterval
    /// How many digits the code has.
    public let codeLength: Int

    /// Creates a delivery receipt.
    public init(resendAfter: TimeInterval, codeLength: Int) {
        self.resendAfter = resendAfter
        self.codeLength = codeLength
    }
}
