// swift-tools-version: 6.0
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
    products: [
        .library(name: "Operations", targets: ["Operations"]),
        .library(name: "AuthFlow", targets: ["AuthFlow"]),
        .executable(name: "opctl", targets: ["opctl"]),
    ],
    targets: [
        .target(name: "Operations", swiftSettings: swiftSettings),
        .target(name: "AuthFlow", dependencies: ["Operations"], swiftSettings: swiftSettings),
        .executableTarget(name: "opctl", dependencies: ["AuthFlow", "Operations"], swiftSettings: swiftSettings),
        .testTarget(name: "OperationsTests", dependencies: ["Operations"], swiftSettings: swiftSettings),
        .testTarget(name: "AuthFlowTests", dependencies: ["AuthFlow", "Operations"], swiftSettings: swiftSettings),
        .testTarget(
            name: "opctlTests",
            dependencies: ["opctl", "AuthFlow", "Operations"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
