// swift-tools-version: 6.2
import PackageDescription

/// The root package's settings: explicit existentials, honest imports.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Checkout",
    // As the root package: Mutex and Atomic need these on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Checkout", targets: ["Checkout"]),
        .executable(name: "checkout", targets: ["checkout"]),
    ],
    dependencies: [
        // The Operations package this example lives in.
        .package(name: "Operations", path: "../..")
    ],
    targets: [
        .target(
            name: "Checkout", dependencies: [.product(name: "Operations", package: "Operations")],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "checkout",
            dependencies: [
                "Checkout", .product(name: "Operations", package: "Operations"),
                .product(name: "OperationsJournal", package: "Operations"),
                .product(name: "OperationsRunner", package: "Operations"),
                // The explorer its `explore` runs, without the test helpers.
                .product(name: "OperationsExplorer", package: "Operations"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CheckoutTests",
            dependencies: [
                "Checkout", "checkout", .product(name: "Operations", package: "Operations"),
                .product(name: "OperationsDiagrams", package: "Operations"),
                .product(name: "OperationsJournal", package: "Operations"),
                .product(name: "OperationsRunner", package: "Operations"),
                .product(name: "OperationsTesting", package: "Operations"),
            ],
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
