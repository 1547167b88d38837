// swift-tools-version: 6.0
import PackageDescription

// A package of your own: its providers, and an executable that is widgetsim
// with them. It depends on widgetsim by path here because it lives inside
// widgetsim's repository (`make test` builds it to prove the route); yours
// would name widgetsim's repository and a version instead.
let package = Package(
    name: "my-widgetsim",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "my-widgetsim", targets: ["MyWidgetSim"]),
    ],
    dependencies: [
        .package(name: "widgetsim", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "MyWidgetSim",
            dependencies: [
                .product(name: "WidgetSim", package: "widgetsim"),
                .product(name: "WidgetSimCLI", package: "widgetsim"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
