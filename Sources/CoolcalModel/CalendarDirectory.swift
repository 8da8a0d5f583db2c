import Foundation

/// What a directory named as a calendar holds, looked at when it is read or written:
/// `.ics` files (one vdir), vdir subfolders (a tree, as vdirsyncer's top folder keeps
/// them), nothing (an empty calendar) or something else (no calendars at all: a
/// typo'd path such as `~`). Only the last is an error: a tool that says "free" must
/// never say it about calendars it did not read.
public enum CalendarDirectory: Equatable, Sendable {
    /// `.ics` files directly in it: one vdir.
    case vdir
    /// Nothing in it but a vdir's `displayname` and `color` files, coolcal's own lock
    /// and temporary files and empty hidden files (`.keep`): an empty calendar (a fresh directory, a collection
    /// `vdirsyncer discover` made).
    case empty
    /// No `.ics` directly in it, but subfolders that are vdirs: their paths, sorted.
    case tree([String])
    /// Entries, but neither `.ics` files nor vdir subfolders.
    case noCalendars

    /// The files a vdir holds besides its events (the vdir storage format).
    public static let metadataFiles: Set<String> = ["displayname", "color"]

    /// What the directory at `path` holds; nil when it cannot be listed.
    ///
    /// A subfolder is a vdir when it has `.ics` files or a `displayname` or `color`
    /// file; an empty subfolder (a collection with no events yet) is one too, but only
    /// beside a vdir subfolder, so that `~` with an empty `Templates` is no tree.
    /// Hidden subfolders are not looked at.
    public static func probe(_ path: String) -> CalendarDirectory? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        if entries.contains(where: isEventFile) { return .vdir }
        let others = entries.filter { !metadataFiles.contains($0) && !isOwn($0) && !isPlaceholder($0, in: path) }
        if others.isEmpty { return .empty }
        var vdirs: [String] = []
        var empties: [String] = []
        for name in others where !name.hasPrefix(".") {
            let sub = (path as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sub, isDirectory: &isDirectory), isDirectory.boolValue,
                  let inner = try? FileManager.default.contentsOfDirectory(atPath: sub) else { continue }
            if inner.contains(where: { isEventFile($0) || metadataFiles.contains($0) }) {
                vdirs.append(sub)
            } else if inner.allSatisfy(isOwn) {
                empties.append(sub)
            }
        }
        guard !vdirs.isEmpty else { return .noCalendars }
        return .tree((vdirs + empties).sorted())
    }

    /// A name a vdir reader reads: ends in `.ics` (any case), not hidden.
    public static func isEventFile(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.lowercased().hasSuffix(".ics")
    }

    /// An empty hidden file (`.keep`, `.gitkeep`): what keeps an empty directory in a
    /// repository. A hidden file with content (`~/.bashrc`) is an entry like any other.
    package static func isPlaceholder(_ name: String, in directory: String) -> Bool {
        guard name.hasPrefix(".") else { return false }
        let attributes = try? FileManager.default.attributesOfItem(atPath: (directory as NSString).appendingPathComponent(name))
        return attributes?[.type] as? FileAttributeType == .typeRegular && (attributes?[.size] as? NSNumber)?.intValue == 0
    }

    /// coolcal's own lock and temporary files in a vdir (`.coolcal-lock`,
    /// `.NAME.coolcal-PID-N.tmp`): what `accept` leaves in a directory it wrote to.
    package static func isOwn(_ name: String) -> Bool {
        name == ".coolcal-lock" || (name.hasPrefix(".") && name.hasSuffix(".tmp") && name.contains(".coolcal-"))
    }
}
