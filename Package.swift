// swift-tools-version: 6.2
import PackageDescription

/// Settings every target shares: Swift 6 mode is the tools-version default; these upcoming
/// features keep existentials explicit and imports honest.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Operations",
    // Mutex and Atomic (Synchronization) need these on Apple platforms; Linux has no minimum.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The engine: operations, context, completion, cancellation, time, retry, scenarios,
        // events and the tracing core. What an app links when it imports `Operations`.
        .library(name: "Operations", targets: ["Operations"]),
        // Durable runs: the journal, the run store, replay, resume checks and sealing.
        .library(name: "OperationsJournal", targets: ["OperationsJournal"]),
        // Message-sequence diagrams of traces: the diagram model and the text, PlantUML and
        // Mermaid renderers.
        .library(name: "OperationsDiagrams", targets: ["OperationsDiagrams"]),
        // Test helpers for operations (LaunchProbe, TestScheduler, …): a test target depends on
        // this product, so `import Operations` in an app brings none of them.
        .library(name: "OperationsTesting", targets: ["OperationsTesting"]),
        // The fault explorer and the test scheduler it drives runs with: what a runner's `explore`
        // needs, apart from the test helpers so that a runner program links none of them.
        // OperationsTesting re-exports it.
        .library(name: "OperationsExplorer", targets: ["OperationsExplorer"]),
        // What a command-line runner of scenarios does whatever its scenarios: argument parsing,
        // the console, the state directory, listings, exit statuses. Apart from Operations,
        // which knows nothing of terminals.
        .library(name: "OperationsRunner", targets: ["OperationsRunner"]),
        .library(name: "AuthFlow", targets: ["AuthFlow"]),
        // AuthFlow's transport for https://, over URLSession: apart from AuthFlow because on Linux
        // URLSession is FoundationNetworking, which loads libcurl and some twenty libraries
        // behind it at every start of a program that links it (half of `opctl --version`).
        .library(name: "AuthFlowURLSession", targets: ["AuthFlowURLSession"]),
        // The sign-in backend simulated in process (SimulatedBackend), apart from AuthFlow so that
        // an app signing in links no simulator; AuthFlowTesting's doubles are built on it.
        .library(name: "AuthSimulator", targets: ["AuthSimulator"]),
        // The AuthAPI test double (StubAuthAPI), kept out of AuthFlow for the same reason.
        .library(name: "AuthFlowTesting", targets: ["AuthFlowTesting"]),
        .executable(name: "opctl", targets: ["opctl"]),
        // The engine's benchmark, apart so that opctl carries no benchmark code.
        .executable(name: "opctl-bench", targets: ["opctl-bench"]),
    ],
    targets: [
        .target(name: "Operations", swiftSettings: swiftSettings),
        .target(name: "OperationsJournal", dependencies: ["Operations"], swiftSettings: swiftSettings),
        .target(name: "OperationsDiagrams", dependencies: ["Operations"], swiftSettings: swiftSettings),
        .target(
            name: "OperationsExplorer", dependencies: ["Operations", "OperationsJournal", "OperationsDiagrams"],
            swiftSettings: swiftSettings),
        .target(
            name: "OperationsTesting",
            dependencies: ["Operations", "OperationsJournal", "OperationsDiagrams", "OperationsExplorer"],
            swiftSettings: swiftSettings),
        .target(
            name: "OperationsRunner",
            dependencies: [
                "Operations", "OperationsJournal", "OperationsDiagrams", "OperationsExplorer", "LoopbackHTTP",
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "AuthFlow", dependencies: ["HTTPWire", "Operations", "OperationsJournal"],
            swiftSettings: swiftSettings),
        .target(name: "AuthFlowURLSession", dependencies: ["AuthFlow", "Operations"], swiftSettings: swiftSettings),
        // The one HTTP server of the package, for `opctl serve` and the tests' real sockets:
        // Foundation only, knows nothing of sign-in; not a product, and apart from AuthFlow so that
        // an app signing in links no server.
        .target(name: "LoopbackHTTP", dependencies: ["HTTPWire"], swiftSettings: swiftSettings),
        // What AuthFlow's client and LoopbackHTTP's server share: HTTP/1.1 head syntax and socket
        // calls, so the two read a message alike; not a product.
        .target(name: "HTTPWire", swiftSettings: swiftSettings),
        .target(
            name: "AuthSimulator", dependencies: ["AuthFlow", "LoopbackHTTP", "Operations"],
            swiftSettings: swiftSettings),
        .target(
            name: "AuthFlowTesting", dependencies: ["AuthFlow", "AuthSimulator", "Operations", "OperationsTesting"],
            swiftSettings: swiftSettings),
        // The committed Diagrams/ and `opctl diagram`, traced from runs against the simulator; not
        // a product: only opctl and the drift tests draw them.
        .target(
            name: "AuthFlowDiagrams", dependencies: ["AuthFlow", "AuthSimulator", "Operations", "OperationsDiagrams"],
            swiftSettings: swiftSettings),
        // The article's stateful sign-in operations and their diagrams, kept only to be compared
        // with the pure ones (tests, the drift-checked Diagrams/*.stateful.*): beside the example
        // package and in no product, so neither an app nor opctl carries them.
        .target(
            name: "StatefulAuthFlow", dependencies: ["AuthFlow", "AuthFlowDiagrams", "Operations"],
            path: "Examples/StatefulAuthFlow", swiftSettings: swiftSettings),
        .executableTarget(
            name: "opctl",
            dependencies: [
                "AuthFlow", "AuthFlowDiagrams", "AuthFlowTesting", "AuthSimulator", "LoopbackHTTP", "Operations",
                "OperationsJournal", "OperationsDiagrams",
                "OperationsRunner",
                // https:// only where URLSession is part of Foundation (Apple platforms): on Linux
                // it would load libcurl and its libraries at every start of every command.
                .target(
                    name: "AuthFlowURLSession",
                    condition: .when(platforms: [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS])),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "opctl-bench",
            dependencies: [
                "Operations", "OperationsJournal", "OperationsDiagrams", "OperationsTesting", "AuthFlowTesting",
            ],
            swiftSettings: swiftSettings),
        // What AuthFlowTests and opctlTests add to LoopbackHTTP's server (recording and holding
        // requests) and a raw connection for malformed bytes; not a product: an app tests its own
        // networking, not this package's.
        .target(
            name: "HTTPTestSupport", dependencies: ["AuthFlow", "AuthSimulator", "LoopbackHTTP", "OperationsTesting"],
            path: "Tests/HTTPTestSupport",
            swiftSettings: swiftSettings),
        // What the tests of the Operations libraries share: test operations, scripted outcomes,
        // journal helpers and the articles' text. A target of its own so that each library's
        // tests can be a target of their own.
        .target(
            name: "OperationsTestSupport",
            dependencies: ["Operations", "OperationsJournal", "OperationsTesting"],
            path: "Tests/OperationsTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "OperationsTests",
            dependencies: [
                "Operations", "OperationsJournal", "OperationsDiagrams", "OperationsTesting", "OperationsTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "OperationsJournalTests",
            dependencies: ["Operations", "OperationsJournal", "OperationsTesting", "OperationsTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "OperationsDiagramsTests",
            dependencies: [
                "Operations", "OperationsDiagrams", "OperationsRunner", "OperationsTesting", "OperationsTestSupport",
            ],
            resources: [.copy("Golden")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "OperationsExplorerTests",
            dependencies: [
                "Operations", "OperationsJournal", "OperationsExplorer", "OperationsTesting", "OperationsTestSupport",
            ],
            swiftSettings: swiftSettings),
        // The runner library through small programs of its own (no sign-in): arguments, help,
        // the commands' output, check and rerun; opctl's own tests stay in opctlTests.
        .testTarget(
            name: "OperationsRunnerTests",
            dependencies: [
                "Operations", "OperationsJournal", "OperationsRunner", "OperationsTesting", "OperationsTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "AuthFlowTests",
            dependencies: [
                "AuthFlow", "AuthFlowDiagrams", "AuthFlowTesting", "AuthFlowURLSession", "AuthSimulator",
                "HTTPTestSupport",
                "LoopbackHTTP",
                "Operations", "OperationsJournal", "OperationsDiagrams", "OperationsTesting", "StatefulAuthFlow",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "opctlTests",
            dependencies: [
                "opctl", "opctl-bench", "OperationsRunner", "AuthFlow", "AuthFlowDiagrams", "AuthSimulator",
                "HTTPTestSupport", "Operations", "OperationsJournal", "OperationsDiagrams", "OperationsTesting",
                "OperationsTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
