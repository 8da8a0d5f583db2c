// swift-tools-version:6.0
import PackageDescription

#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
/// Where Debian's libgmime-3.0-dev and libglib2.0-dev put their headers.
let gmimeIncludes = ["/usr/include/gmime-3.0", "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include"]
/// The GMime and GLib headers, for the targets that import CGMime or CGio and those that load them.
let cHeaders: [SwiftSetting] = [.unsafeFlags(gmimeIncludes.flatMap { ["-Xcc", "-I" + $0] })]

/// The layers, bottom first: each target may import only those it lists, and the build
/// (`--explicit-target-dependency-import-check error`) refuses any other import of ours.
/// Folder `Sources/NAME` holds target NAME; README.md's Layout says what each holds.
let layers: [(name: String, dependencies: [String])] = [
    ("CoolcalModel", []),
    ("CoolcalSupport", ["CChecksum", "CLinux", "CoolcalModel"]),
    // HTTP with Foundation's URLSession (libcurl): only the helper program coolcal-http links it.
    ("CoolcalHTTP", ["CoolcalSupport"]),
    // Time zones by name: the system's (IANA, Windows IDs through ICU, Outlook's display names) and a file's.
    ("CoolcalZones", ["CoolcalModel"]),
    // The pure-Swift byte scan a read starts with (`ICalPreFilter`); libical is above it.
    ("CoolcalScan", ["CoolcalModel", "CoolcalSupport", "CoolcalZones"]),
    // The C boundaries: each the only importer of its C module.
    ("CoolcalDesktop", ["CGio", "CoolcalModel", "CoolcalSupport"]),
    ("CoolcalMail", ["CGMime", "CoolcalModel", "CoolcalSupport"]),
    ("CoolcalICal", ["CLibical", "CoolcalModel", "CoolcalScan", "CoolcalSupport", "CoolcalZones"]),
    ("CoolcalState", ["CSQLite", "CoolcalModel", "CoolcalSupport"]),
    ("CoolcalCalendars", ["CoolcalICal", "CoolcalModel", "CoolcalScan", "CoolcalZones"]),
    ("CoolcalInvite", ["CoolcalCalendars", "CoolcalICal", "CoolcalMail", "CoolcalModel", "CoolcalSupport"]),
    ("CoolcalCalDAV", ["CoolcalCalendars", "CoolcalICal", "CoolcalModel", "CoolcalSupport"]),
    ("CoolcalSchedule", ["CoolcalCalendars", "CoolcalInvite", "CoolcalModel"]),
    ("CoolcalWriting", ["CoolcalCalDAV", "CoolcalCalendars", "CoolcalICal", "CoolcalInvite", "CoolcalModel", "CoolcalScan",
                        "CoolcalSupport", "CoolcalZones"]),
    ("CoolcalSpool", ["CoolcalInvite", "CoolcalMail", "CoolcalModel", "CoolcalState", "CoolcalSupport"]),
    ("CoolcalRSVP", ["CoolcalInvite", "CoolcalMail", "CoolcalModel", "CoolcalState", "CoolcalSupport"]),
    ("CoolcalCheck", ["CoolcalCalDAV", "CoolcalCalendars", "CoolcalICal", "CoolcalInvite", "CoolcalModel", "CoolcalSchedule",
                      "CoolcalSupport"]),
    // Every answer workflow, merge's run among them: trust, the iTIP state machine, recording and mailing.
    ("CoolcalAnswering", ["CoolcalCalDAV", "CoolcalCalendars", "CoolcalCheck", "CoolcalICal", "CoolcalInvite", "CoolcalMail",
                          "CoolcalModel", "CoolcalRSVP", "CoolcalSchedule", "CoolcalSpool", "CoolcalState", "CoolcalSupport",
                          "CoolcalWriting", "CoolcalZones"]),
    // Outcomes become words only here.
    ("CoolcalOutput", ["CoolcalAnswering", "CoolcalCalendars", "CoolcalInvite", "CoolcalModel", "CoolcalSchedule", "CoolcalState",
                       "CoolcalSupport", "CoolcalWriting"]),
    ("CoolcalCLI", ["CoolcalAnswering", "CoolcalCalendars", "CoolcalCheck", "CoolcalDesktop", "CoolcalICal", "CoolcalInvite",
                    "CoolcalMail", "CoolcalModel", "CoolcalOutput", "CoolcalRSVP", "CoolcalSchedule", "CoolcalSpool",
                    "CoolcalState", "CoolcalSupport", "CoolcalWriting", "CoolcalZones"]),
]

/// The unit tests (issue #47): one test target per layer that has tests, `Tests/<layer>Tests`
/// (the CLI layer's `CoolcalCLIUnitTests`, not to be confused with the binary's `CLITests`), a
/// test where the highest layer it imports is; each depends on exactly what it imports
/// (DependencyTests), so a change in a layer rebuilds only the tests of the layers that import it.
/// `HouseRulesTests` reads the sources and the manifest (LayeringTests, DependencyTests,
/// RawSystemCallTests) and depends on nothing; `CoolcalTestSupport` holds the helpers several
/// layers' tests share (no tests of its own; not a layer, not in the product).
let unitTests: [(name: String, dependencies: [String])] = [
    ("HouseRulesTests", []),
    ("CoolcalTestSupport", ["CoolcalCalendars", "CoolcalICal", "CoolcalInvite", "CoolcalModel"]),
    ("CoolcalModelTests", ["CoolcalModel"]),
    ("CoolcalSupportTests", ["CoolcalSupport"]),
    ("CoolcalZonesTests", ["CoolcalICal", "CoolcalModel", "CoolcalZones"]),
    ("CoolcalScanTests", ["CoolcalCalendars", "CoolcalICal", "CoolcalModel", "CoolcalScan", "CoolcalTestSupport",
                          "CoolcalWriting", "CoolcalZones"]),
    ("CoolcalMailTests", ["CoolcalInvite", "CoolcalMail", "CoolcalModel", "CoolcalSpool", "CoolcalTestSupport"]),
    ("CoolcalICalTests", ["CoolcalCalendars", "CoolcalICal", "CoolcalInvite", "CoolcalModel", "CoolcalScan", "CoolcalScanTests",
                          "CoolcalTestSupport", "CoolcalZones"]),
    ("CoolcalCalendarsTests", ["CoolcalCalendars", "CoolcalICal", "CoolcalModel", "CoolcalTestSupport"]),
    ("CoolcalInviteTests", ["CoolcalInvite", "CoolcalModel", "CoolcalSupport", "CoolcalTestSupport"]),
    ("CoolcalCalDAVTests", ["CoolcalCalDAV", "CoolcalICal", "CoolcalModel", "CoolcalState", "CoolcalSupport", "CoolcalWriting"]),
    ("CoolcalScheduleTests", ["CoolcalCalendars", "CoolcalICal", "CoolcalInvite", "CoolcalModel", "CoolcalSchedule",
                              "CoolcalTestSupport"]),
    ("CoolcalWritingTests", ["CoolcalCalendarsTests", "CoolcalICal", "CoolcalModel", "CoolcalScan", "CoolcalScanTests",
                             "CoolcalSupport", "CoolcalTestSupport", "CoolcalWriting"]),
    ("CoolcalSpoolTests", ["CoolcalMail", "CoolcalModel", "CoolcalSpool", "CoolcalState", "CoolcalSupport"]),
    ("CoolcalRSVPTests", ["CoolcalICal", "CoolcalInvite", "CoolcalMail", "CoolcalModel", "CoolcalRSVP"]),
    ("CoolcalAnsweringTests", ["CoolcalAnswering", "CoolcalCalDAV", "CoolcalICal", "CoolcalInvite", "CoolcalModel",
                               "CoolcalRSVP", "CoolcalState", "CoolcalSupport", "CoolcalTestSupport", "CoolcalWriting"]),
    ("CoolcalOutputTests", ["CoolcalAnswering", "CoolcalCalendars", "CoolcalInvite", "CoolcalModel", "CoolcalOutput",
                            "CoolcalSchedule", "CoolcalState", "CoolcalSupport", "CoolcalTestSupport"]),
    ("CoolcalCLIUnitTests", ["CoolcalAnswering", "CoolcalCLI", "CoolcalCalDAV", "CoolcalCalendars", "CoolcalDesktop",
                             "CoolcalICal", "CoolcalInvite", "CoolcalMail", "CoolcalModel", "CoolcalOutput", "CoolcalRSVP",
                             "CoolcalScan", "CoolcalScanTests", "CoolcalSchedule", "CoolcalSpool", "CoolcalState",
                             "CoolcalSupport", "CoolcalTestSupport", "CoolcalWriting", "CoolcalZones", "HouseRulesTests"]),
]

let package = Package(
    name: "coolcal",
    products: [.executable(name: "coolcal", targets: ["coolcal"]),
               .executable(name: "coolcal-http", targets: ["coolcal-http"])]
        // One library per layer, for Fuzz/ (a package of its own).
        + layers.map { .library(name: $0.name, targets: [$0.name]) },
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
        // GIO's GDBus, for desktop notifications (CoolcalDesktop); its headers are GLib's (gmimeIncludes).
        .systemLibrary(
            name: "CGio",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // glibc's Linux calls that its Swift module leaves out (_GNU_SOURCE ones): CoolcalSupport's funnel.
        .systemLibrary(name: "CLinux"),
        // CRC-32C with the CPU's crc32 instruction (a header of ours, no library): CoolcalSupport's Checksum.
        .systemLibrary(name: "CChecksum"),
    ] + layers.map { layer in
        .target(
            name: layer.name,
            dependencies: layer.dependencies.map { .target(name: $0) },
            swiftSettings: cHeaders,
            // Windows zone names are mapped with the toolchain's own ICU (Foundation's).
            linkerSettings: layer.name == "CoolcalZones" ? [.linkedLibrary("_FoundationICU")] : []
        )
    } + [
        .executableTarget(
            name: "coolcal",
            dependencies: ["CoolcalCLI"]
        ),
        // What sends coolcal's HTTP requests (HTTPHelper): the only program that loads libcurl.
        .executableTarget(
            name: "coolcal-http",
            dependencies: ["CoolcalHTTP"]
        ),
    ] + unitTests.map { tests in
        .testTarget(
            name: tests.name,
            dependencies: tests.dependencies.map { .target(name: $0) },
            // Long expected texts, read by the tests from beside them.
            exclude: tests.name == "CoolcalOutputTests" ? ["Snapshots"] : [],
            swiftSettings: cHeaders
        )
    } + [
        // The unit tests' slow tier (`make quick` skips it): the differential runs over
        // generated calendars and the system's zones, each suite over 5 s; it uses the
        // unit tests' helpers (`@testable import CoolcalTestSupport`, CoolcalScanTests…).
        .testTarget(
            name: "CoolcalKitSlowTests",
            dependencies: ["CoolcalCalendars", "CoolcalCalendarsTests", "CoolcalCheck", "CoolcalICal", "CoolcalInvite", "CoolcalModel",
                           "CoolcalScan", "CoolcalScanTests", "CoolcalState", "CoolcalSupport", "CoolcalTestSupport",
                           "CoolcalWriting", "CoolcalWritingTests"].map { .target(name: $0) },
            swiftSettings: cHeaders
        ),
        .testTarget(
            name: "CLITests",
            // What its tests import (DependencyTests): they run the built binary, which
            // `swift build --build-tests` builds with every target.
            dependencies: ["CoolcalCLI", "CoolcalICal", "CoolcalModel", "CoolcalScan", "CoolcalState"].map { .target(name: $0) },
            swiftSettings: cHeaders
        ),
        // The slow tier (`make quick` skips every `…SlowTests` target; `make unit` and CI run
        // them): a suite over 5 s, or one needing a real server, root or a daemon. Its files
        // mirror CLITests' folders and use CLITests' harness (`@testable import CLITests`).
        .testTarget(
            name: "CLISlowTests",
            dependencies: ["CLITests", "CoolcalCalDAV", "CoolcalICal", "CoolcalInvite", "CoolcalModel", "CoolcalState",
                           "CoolcalSupport", "CoolcalWriting"].map { .target(name: $0) },
            swiftSettings: cHeaders
        ),
    ]
)
