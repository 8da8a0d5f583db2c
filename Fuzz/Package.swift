// swift-tools-version:6.0
// libFuzzer harnesses for coolcal. A package of its own: these executables have no
// `main` (libFuzzer supplies it), so they must stay out of the root package's plain
// `swift build`. Build and run them with ./run.sh (or `make fuzz` at the root).
import PackageDescription

let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "coolcal-fuzz",
    dependencies: [
        .package(name: "coolcal", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzInvite",
            dependencies: [.product(name: "CoolcalInvite", package: "coolcal"), .product(name: "CoolcalWriting", package: "coolcal")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzCalendar",
            dependencies: [.product(name: "CoolcalModel", package: "coolcal"), .product(name: "CoolcalICal", package: "coolcal"), .product(name: "CoolcalCalendars", package: "coolcal")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzPreFilter",
            dependencies: [.product(name: "CoolcalModel", package: "coolcal"), .product(name: "CoolcalScan", package: "coolcal"),
                           .product(name: "CoolcalICal", package: "coolcal"), .product(name: "CoolcalCalendars", package: "coolcal")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzMessage",
            dependencies: [.product(name: "CoolcalInvite", package: "coolcal"), .product(name: "CoolcalMail", package: "coolcal")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzArguments",
            dependencies: [.product(name: "CoolcalCLI", package: "coolcal")],
            swiftSettings: fuzzSettings
        ),
    ]
)
