import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalSupport

/// File names for events in a vdir, made from UIDs that are never trusted: no `/`,
/// no `..`, no control characters, no leading dot, at most 200 bytes.
package enum VdirNaming {
    package static func safeName(_ uid: String) -> String {
        var name = ""
        for scalar in uid.unicodeScalars {
            let ok = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._@+=-".unicodeScalars.contains(scalar))
            name.unicodeScalars.append(ok ? scalar : "_")
        }
        while name.hasPrefix(".") { name = "_" + name.dropFirst() }
        name = String(name.prefix(200))
        return name.isEmpty ? "event" : name
    }

    /// The mode of the collection's `.ics` files (the first one listed, permission bits
    /// only), for a new one beside them; 0600 when there is none (calendars are private,
    /// as vdirsyncer writes them).
    package static func fileMode(in dir: String) -> mode_t {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted() ?? []
        for name in names where name.hasSuffix(".ics") && !name.hasPrefix(".") {
            if let status = FileStatus.of(dir + "/" + name, followSymlinks: false), status.kind == .regular {
                return mode_t(status.permissions & 0o777)
            }
        }
        return 0o600
    }

    /// The file that holds the event with this UID — whatever its name, since
    /// vdirsyncer names files after the server's hrefs — else a new
    /// `DIR/NAME.ics`, or `DIR/NAME-2.ics`… when another event already has the name.
    package static func file(for uid: String, marker: String? = nil, in dir: String) throws -> String {
        let base = safeName(uid)
        var free: String?
        for n in 1...1000 {
            let path = dir + "/" + base + (n == 1 ? "" : "-\(n)") + ".ics"
            guard FileStatus.of(path, followSymlinks: false) != nil else {
                free = path
                break
            }
            // A FIFO, device or subdirectory of that name is skipped, never opened.
            if let data = contents(path), holds(data, uid, marker) { return path }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        for name in names.sorted() where name.lowercased().hasSuffix(".ics") && !name.hasPrefix(".") {
            let path = dir + "/" + name
            if let data = contents(path), holds(data, uid, marker) { return path }
        }
        guard let free else { throw WriteError(kind: .cannotCreate, path: dir, message: "no free file name for \(base).ics") }
        return free
    }

    /// A regular file's bytes (through `InputFile`: anything else is never opened
    /// for reading), or nil.
    private static func contents(_ path: String) -> Data? {
        guard FileStatus.of(path)?.kind == .regular else { return nil }
        return try? ICalReader.wholeFile(path)
    }

    /// Whether libical finds an event with this UID (or coolcal's invitation marker,
    /// which survives a change of `domain`) in the file; the text is looked at first,
    /// so that only likely files are parsed.
    private static func holds(_ data: Data, _ uid: String, _ marker: String?) -> Bool {
        let text = String(decoding: ContentLines.unfolded(Array(data)), as: UTF8.self)
        let markerLine = marker.map { "X-COOLCAL-INVITE-ID:\($0)" }
        // The marker line whole: `…:1` must not match `…:12`.
        let hasMarker = markerLine.map { text.contains($0 + "\n") || text.contains($0 + "\r") } == true
        guard text.contains(uid) || hasMarker,
              let calendar = try? ICalReader.read(data, file: "vdir") else { return false }
        return calendar.events.contains { $0.uid == uid || (marker != nil && $0.inviteID == marker) }
    }
}
