// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "coolcal",
    products: [
        .executable(name: "coolcal", targets: ["coolcal"]),
        .library(name: "CoolcalKit", targets: ["CoolcalKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CGMime",
            pkgConfig: "gmime-3.0",
            providers: [.apt(["libgmime-3.0-dev"])]
        ),
        .target(
            name: "CoolcalKit",
            dependencies: ["CLibical", "CSQLite", "CGMime"],
            // Windows zone names are mapped with the toolchain's own ICU (Foundation's).
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        .executableTarget(
            name: "coolcal",
            dependencies: ["CoolcalKit"]
        ),
        .testTarget(
            name: "CoolcalKitTests",
            dependencies: ["CoolcalKit"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["CoolcalKit"]
        ),
    ]
)
