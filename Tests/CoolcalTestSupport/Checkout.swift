import Foundation

/// The checkout these tests run from, and the corpora beside it (`../shared/corpora/…`),
/// found from this file's place: `Tests/CoolcalTestSupport/Checkout.swift`.
enum Checkout {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/corpora/NAME` beside the checkout, if there.
    static func corpus(_ name: String) -> URL? {
        let dir = root.deletingLastPathComponent().appendingPathComponent("shared/corpora/" + name)
        return FileManager.default.fileExists(atPath: dir.path) ? dir : nil
    }
}
