import CoolcalCalDAV
import Foundation
@testable import CLITests

/// Puts a calendar file into a CalDAV collection the way clients keep one: one
/// resource per UID (the master with its overrides), each with the file's
/// `VTIMEZONE`s, after `MKCALENDAR`.
enum CalDAVUpload {
    /// Creates the collection at `url` and uploads every VEVENT of the files;
    /// returns the UIDs uploaded.
    @discardableResult
    static func upload(_ files: [String], to url: String, environment: [String: String] = [:]) throws -> [String] {
        let client = try CalDAVClient(calendar: url, environment: environment)
        try client.makeCalendar()
        var uids: [String] = []
        for file in files {
            for (uid, text) in try resources(of: String(contentsOfFile: file, encoding: .utf8)) {
                try client.put(client.href(forName: uid + ".ics"), data: Data(text.utf8), precondition: .create)
                uids.append(uid)
            }
        }
        return uids
    }

    /// The calendar's text split into one VCALENDAR per UID, in order of appearance.
    /// Works on the raw lines (folded lines stay folded), like a vdir's files.
    static func resources(of text: String) throws -> [(uid: String, text: String)] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map(String.init).filter { !$0.isEmpty }
        var zones: [String] = []
        var events: [(uid: String, lines: [String])] = []
        var block: [String]? = nil
        var depth = 0
        for line in lines {
            if line.hasPrefix("BEGIN:") { depth += 1 }
            if depth >= 2 { block = (block ?? []) + [line] }
            if line.hasPrefix("END:") {
                depth -= 1
                if depth == 1, let finished = block {
                    if finished.first == "BEGIN:VTIMEZONE" { zones += finished }
                    if finished.first == "BEGIN:VEVENT" {
                        guard let uid = finished.first(where: { $0.hasPrefix("UID:") })?.dropFirst(4) else {
                            throw SetupError("a VEVENT without UID")
                        }
                        events.append((String(uid), finished))
                    }
                    block = nil
                }
            }
        }
        var order: [String] = []
        var byUID: [String: [String]] = [:]
        for event in events {
            if byUID[event.uid] == nil { order.append(event.uid) }
            byUID[event.uid, default: []] += event.lines
        }
        return order.map { uid in
            let body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//coolcal tests//EN"] + zones + (byUID[uid] ?? [])
                + ["END:VCALENDAR"]
            return (uid, body.joined(separator: "\r\n") + "\r\n")
        }
    }
}
