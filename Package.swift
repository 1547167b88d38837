// swift-tools-version: 6.0
import PackageDescription

// widgetsim has no package dependencies by design: the toolchain's standard
// library, Foundation, XCTest and Swift Testing only.
let package = Package(
    name: "widgetsim",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "WidgetSim", targets: ["WidgetSim"]),
        // The command line as a library, so a package with providers of its
        // own builds widgetsim with them (WidgetSimCommandLine.main(providers:apps:)).
        .library(name: "WidgetSimCLI", targets: ["WidgetSimCLI"]),
        .executable(name: "widgetsim", targets: ["widgetsim"]),
        .executable(name: "widgetsim-bench", targets: ["WidgetSimBench"]),
        .executable(name: "widgetsim-fuzz", targets: ["WidgetSimFuzz"]),
        .executable(name: "widgetsim-chaos", targets: ["WidgetSimChaos"]),
        .executable(name: "widgetsim-mutate", targets: ["WidgetSimMutate"]),
    ],
    targets: [
        // The whole simulator: engine, WidgetKit model, scheduler, behaviour,
        // scenarios and reports.
        .target(
            name: "WidgetSim",
            swiftSettings: [
                // Internal invariant checks (queue order, monotonic time, ledger
                // consistency) run in debug builds, which is what `make test` uses.
                .define("WIDGETSIM_INTERNAL_CHECKS", .when(configuration: .debug)),
            ]
        ),
        // The command-line front end: argument parsing, printing, exit codes.
        .target(name: "WidgetSimCLI", dependencies: ["WidgetSim"]),
        .executableTarget(name: "widgetsim", dependencies: ["WidgetSimCLI"]),
        // `make bench`: speed and memory, measured in child processes; never run by `make test`.
        .executableTarget(name: "WidgetSimBench", dependencies: ["WidgetSim"]),
        // `make fuzz`: random scenarios by the hundred thousand; never run by `make test`.
        .executableTarget(name: "WidgetSimFuzz", dependencies: ["WidgetSim"]),
        // `make chaos`: real runs interrupted at random instants by SIGINT,
        // SIGTERM and SIGKILL, each checked; never run by `make test`, which
        // runs a short campaign from the same kit (ChaosTests).
        .target(name: "WidgetSimChaosKit", dependencies: ["WidgetSim"]),
        .executableTarget(name: "WidgetSimChaos", dependencies: ["WidgetSimChaosKit"]),
        // The mutation engine of `make mutate`: valid inputs of every format,
        // mutated structure-aware and reproducibly. A library of its own so the
        // tests can feed the same mutants to the parsers in-process.
        .target(name: "WidgetSimMutation", dependencies: ["WidgetSim"]),
        // `make mutate`: mutated inputs against the release binary in child
        // processes, with a timeout and a memory limit; never run by `make test`.
        .executableTarget(name: "WidgetSimMutate", dependencies: ["WidgetSimMutation"]),
        .testTarget(name: "WidgetSimTests", dependencies: ["WidgetSim", "WidgetSimCLI", "WidgetSimChaosKit", "WidgetSimMutation"]),
    ],
    swiftLanguageModes: [.v6]
)
