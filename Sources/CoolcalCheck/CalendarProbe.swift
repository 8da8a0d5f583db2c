import Foundation
import CoolcalCalDAV
import CoolcalModel

/// What `config --check` finds of one calendar (issue 49): whether it is there and
/// writable, what a directory holds (one vdir, or a tree of them as vdirsyncer keeps
/// them), and for a CalDAV collection whether its server schedules
/// (`calendar-auto-schedule` among the `DAV` classes of `OPTIONS`, RFC 6638 §2), its
/// `schedule-calendar-transp` (§9.1) and the server's calendar for new invitations
/// (§9.2), where offered. A server that fails throws its `CalDAVError` (75 or 77).
public struct CalendarProbe: Equatable, Sendable {
    /// What the operand names.
    public enum Kind: Equatable, Sendable {
        case file
        /// A directory, as `CalendarDirectory` tells it; nil when it cannot be listed.
        case directory(CalendarDirectory?)
        /// A CalDAV collection and its display name.
        case collection(displayName: String?)
    }

    /// The operand as shown (a URL without its password).
    public let shown: String
    public let kind: Kind
    public let exists: Bool
    /// Whether coolcal may write there (a file not there yet: its directory); nil for a
    /// server (a PUT is the only sure test, and `--check` writes nothing).
    public let writable: Bool?
    /// Whether the server names `calendar-auto-schedule`; nil for a local calendar.
    public let schedules: Bool?
    /// `schedule-calendar-transp`: true for `transparent`, false for `opaque`; nil
    /// when not offered (or a local calendar).
    public var transparent: Bool? = nil
    /// The server's calendar for new invitations (`schedule-default-calendar-URL`),
    /// as shown, and whether it is this one; nil when not offered.
    public var defaultCalendar: (shown: String, isThis: Bool)? = nil

    public static func == (a: CalendarProbe, b: CalendarProbe) -> Bool {
        a.shown == b.shown && a.kind == b.kind && a.exists == b.exists && a.writable == b.writable
            && a.schedules == b.schedules && a.transparent == b.transparent
            && a.defaultCalendar?.shown == b.defaultCalendar?.shown && a.defaultCalendar?.isThis == b.defaultCalendar?.isThis
    }

    public static func probe(_ operand: String, environment: [String: String]) throws -> CalendarProbe {
        let files = FileManager.default
        switch CalendarLocation(operand) {
        case .remote(let url):
            let client = try CalDAVClient(calendar: url, environment: environment)
            let collection = try client.verify()
            let classes = try client.complianceClasses()
            let inbox = try client.defaultCalendarURL().map { found in
                (shown: CalendarLocation.redact(found.absoluteString), isThis: Self.samePath(found, client.location.url))
            }
            return CalendarProbe(shown: CalendarLocation.redact(url), kind: .collection(displayName: collection.displayName),
                                 exists: true, writable: nil, schedules: classes.contains("calendar-auto-schedule"),
                                 transparent: collection.transparent, defaultCalendar: inbox)
        case .vdir(let path):
            return CalendarProbe(shown: path, kind: .directory(CalendarDirectory.probe(path)), exists: true,
                                 writable: files.isWritableFile(atPath: path), schedules: nil)
        case .file(let path):
            let exists = files.fileExists(atPath: path)
            let directory = (path as NSString).deletingLastPathComponent
            return CalendarProbe(shown: path, kind: .file, exists: exists,
                                 writable: files.isWritableFile(atPath: exists ? path : (directory.isEmpty ? "." : directory)),
                                 schedules: nil)
        }
    }

    /// The same collection: the resolved URLs' paths, a trailing slash aside (`resolve`
    /// already kept the server the same).
    private static func samePath(_ a: URL, _ b: URL) -> Bool {
        func trimmed(_ url: URL) -> String {
            let path = url.path(percentEncoded: false)
            return path.hasSuffix("/") ? String(path.dropLast()) : path
        }
        return trimmed(a) == trimmed(b)
    }
}
