public import Operations

// The secrets already print only their redacted form; adopting the engine's protocol makes the
// engine's labels and traces use it too.
extension PhoneToken: Redactable {}
extension AuthToken: Redactable {}
extension SMSCode: Redactable {}
