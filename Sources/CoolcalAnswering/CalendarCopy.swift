import Foundation
import CoolcalCalDAV
import CoolcalModel
import CoolcalWriting

/// The stored copy of an event found pending in a calendar, as text: what the inbox
/// keeps as its payload (`inbox open`, `conflicts N` read it). For a vdir (or a tree of
/// them) the item file that holds the UID, whole; for a single file, its VTIMEZONEs and
/// the VEVENTs of that UID in a VCALENDAR of their own.
enum CalendarCopy {
    /// Nil when no file at `location` holds the UID (it vanished since it was read).
    /// `settings`: for a CalDAV collection, whose resource holding the UID is fetched.
    static func text(uid: String, at location: CalendarLocation, settings: AnswerSettings) -> String? {
        switch location {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            let text = CalendarText(bytes: data)
            let blocks = text.candidateBlocks(uid: uid, marker: nil)
            guard !blocks.isEmpty else { return nil }
            let bytes = Array(data)
            let parts = (text.timezoneBlocks() + blocks).map { String(decoding: bytes[$0], as: UTF8.self) }
            return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//coolcal//calendar copy//EN\r\n" + parts.joined() + "END:VCALENDAR\r\n"
        case .vdir(let path):
            // The item file that holds the UID, as answering in place finds it.
            return InPlaceAnswer.item(holding: uid, in: path, depth: 2)
                .flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) }
        case .remote(let url):
            let client = try? CalDAVClient(calendar: url, environment: settings.environment, diagnostics: settings.diagnostics)
            return (try? client?.find(uid: uid)).flatMap { $0 }.map { String(decoding: $0.data, as: UTF8.self) }
        }
    }
}
