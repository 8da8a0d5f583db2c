// swift-tools-version:6.0
import PackageDescription

#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
/// Where Debian's libgmime-3.0-dev and libglib2.0-dev put their headers.
let gmimeIncludes = ["/usr/include/gmime-3.0", "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include"]

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
        // No pkgConfig: gmime-3.0.pc carries -pthread and -D_LARGEFILE64_SOURCE, flags SwiftPM
        // refuses with a warning on every build; the include paths are Debian's (gmimeIncludes).
        .systemLibrary(
            name: "CGMime",
            providers: [.apt(["libgmime-3.0-dev"])]
        ),
        // GIO's GDBus, for desktop notifications (Desktop/); its headers are GLib's (gmimeIncludes).
        .systemLibrary(
            name: "CGio",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .target(
            name: "CoolcalKit",
            dependencies: ["CLibical", "CSQLite", "CGMime", "CGio"],
            // Windows zone names are mapped with the toolchain's own ICU (Foundation's).
            swiftSettings: [.unsafeFlags(gmimeIncludes.flatMap { ["-Xcc", "-I" + $0] })],
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
