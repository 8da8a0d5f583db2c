import Foundation
import CoolcalModel
import CoolcalState

/// Who counts as known for `accept-from = known`: an organizer or attendee of any event in
/// the user's local calendars (files, vdirs, vdirsyncer trees), or anyone the person
/// answered before (the state's `known_senders`). The calendars are scanned only when an
/// invitation asks, once a run, as text: ORGANIZER and ATTENDEE lines, nothing parsed.
/// A CalDAV calendar is not scanned (that would download it whole): its people become
/// known once the person answers them.
final class KnownSenders {
    private let calendars: [CalendarLocation]
    private let state: StateStore?
    private var scanned: Set<String>?

    init(calendars: [CalendarLocation], state: StateStore?) {
        self.calendars = calendars
        self.state = state
    }

    /// Whether `address` (normalized) is known.
    func contains(_ address: String) -> Bool {
        if let state, (try? state.senders.isKnown(address)) == true { return true }
        if scanned == nil { scanned = Self.scan(calendars) }
        return scanned?.contains(address) ?? false
    }

    /// The addresses of every ORGANIZER and ATTENDEE line in these calendars, normalized.
    static func scan(_ calendars: [CalendarLocation]) -> Set<String> {
        var found = Set<String>()
        for location in calendars {
            switch location {
            case .remote: continue
            case .file(let path): collect(path, into: &found)
            case .vdir(let path): for file in icsFiles(under: path, depth: 2) { collect(file, into: &found) }
            }
        }
        return found
    }

    private static func icsFiles(under directory: String, depth: Int) -> [String] {
        guard depth >= 0, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += icsFiles(under: path, depth: depth - 1)
            } else if name.lowercased().hasSuffix(".ics") {
                files.append(path)
            }
        }
        return files
    }

    private static let organizer = Array("ORGANIZER".utf8)
    private static let attendee = Array("ATTENDEE".utf8)

    private static func collect(_ path: String, into found: inout Set<String>) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        ContentLines.forEachUnfolded(in: data, startingWith: { let u = ContentLines.upper($0); return u == 0x4F || u == 0x41 }) { bytes in
            let name = ContentLines.propertyName(bytes)
            guard name == organizer || name == attendee else { return }
            // The value starts after the first colon outside quoted parameter values.
            var quoted = false
            guard let colon = bytes.firstIndex(where: { b in
                if b == 0x22 { quoted.toggle() }
                return b == 0x3A && !quoted
            }) else { return }
            let address = CalendarAddress.normalized(String(decoding: bytes[(colon + 1)...], as: UTF8.self))
            if address.contains("@") { found.insert(address) }
        }
    }
}
