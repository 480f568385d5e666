public import Operations

/// Lets retry policies read the classification the backend contract gives each error.
extension AuthError: RetryableError {}
