/// A program built on the runner: one type whose ``configuration`` says everything the runner's
/// commands (`run`, `rerun`, `runs`, `show`, `prune`, `check`, `diagram`, `ui`, `ops`, `explore`)
/// need to know about it. The commands are generic over it (`RunScenario<CheckoutProgram>`), so
/// its metatype is sendable: they use it inside closures.
///
/// ## Screens must not need the main actor
///
/// A runner is a command-line program: ``RunnerMain/runProcess()`` runs the command on the main
/// thread, and `run`/`rerun` block that thread until the run finishes. Nothing else drains the
/// main queue meanwhile, so a screen the run shows (a prompt, a picker) that hops to the main
/// actor — a `@MainActor` screen or view model, `DispatchQueue.main.async`, `MainActor.run` —
/// waits for a thread that is waiting for it: the run deadlocks. Give the runner screens that
/// answer on the thread that asks them, or on a queue of their own (opctl reads the terminal
/// synchronously); keep the `@MainActor` ones for the app, which launches the same scenario
/// from its main actor and does not block it.
public protocol RunnerProgram: SendableMetatype {
    /// What every runnable is launched with, when the command line or the journal has it (a
    /// screen may ask for it otherwise): opctl's is the phone number.
    associatedtype Input: Codable & Sendable

    /// The program, said once; a `static let`, so it is made once per process.
    static var configuration: RunnerConfiguration<Input> { get }
}
