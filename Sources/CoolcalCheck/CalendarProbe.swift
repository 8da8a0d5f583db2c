import Foundation
import CoolcalCalDAV
import CoolcalModel

/// What `config --check` finds of one calendar (issue 49): whether it is there and
/// writable, what a directory holds (one vdir, or a tree of them as vdirsyncer keeps
/// them), and for a CalDAV collection whether its server schedules
/// (`calendar-auto-schedule` among the `DAV` classes of `OPTIONS`, RFC 6638 §2). A
/// server that fails throws its `CalDAVError` (75 or 77).
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

    public static func probe(_ operand: String, environment: [String: String]) throws -> CalendarProbe {
        let files = FileManager.default
        switch CalendarLocation(operand) {
        case .remote(let url):
            let client = try CalDAVClient(calendar: url, environment: environment)
            let collection = try client.verify()
            let classes = try client.complianceClasses()
            return CalendarProbe(shown: CalendarLocation.redact(url), kind: .collection(displayName: collection.displayName),
                                 exists: true, writable: nil, schedules: classes.contains("calendar-auto-schedule"))
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
}
