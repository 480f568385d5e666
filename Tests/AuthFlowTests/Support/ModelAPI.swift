import AuthFlowTesting

/// The backend a view model a test builds is handed: models compare by what they show, so an
/// expected model needs one, and nothing may call it (a call fails loudly).
let modelAPI = StubAuthAPI()
