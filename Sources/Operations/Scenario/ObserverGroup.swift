/// Sends every scenario event to several observers, in order: a progress printer and a journal.
public struct ObserverGroup: ScenarioObserver {
    private let observers: [any ScenarioObserver]

    /// Creates a group.
    ///
    /// - Parameter observers: Receive each event in this order.
    public init(_ observers: [any ScenarioObserver]) {
        self.observers = observers
    }

    /// Receives one scenario event, in the order events happen within a run.
    public func scenario(_ event: ScenarioEvent) {
        for observer in observers { observer.scenario(event) }
    }

    /// Tells every observer, in order.
    public func runParked() {
        for observer in observers { observer.runParked() }
    }

    /// Tells every observer, in order.
    public func runGoesOn() {
        for observer in observers { observer.runGoesOn() }
    }

    /// The first member's reason to stop the run: one failed journal stops it, whoever else
    /// watches.
    public var haltingError: (any Error)? {
        observers.lazy.compactMap(\.haltingError).first
    }
}
