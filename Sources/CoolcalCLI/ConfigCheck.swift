import Foundation
import CoolcalCheck
import CoolcalModel

/// `coolcal config --check` (issue 49): each `calendar` line probed (`CalendarProbe`),
/// one line each; `coolcal config` alone stays offline. Exits 0 with its findings, 75 or
/// 77 when a server failed (unreachable, or refused the credentials).
package struct ConfigCheck {
    package let settings: Settings
    package let environment: [String: String]

    /// The lines to print and the run's status.
    package func run() -> (text: String, status: ExitStatus) {
        let calendars = settings.config.calendars
        guard !calendars.isEmpty else { return ("check: no calendar lines in the config file\n", .ok) }
        var lines: [String] = []
        var status = ExitStatus.ok
        var scheduling = false
        for operand in calendars {
            do {
                let probe = try CalendarProbe.probe(operand, environment: environment)
                scheduling = scheduling || probe.schedules == true
                lines.append("check: " + PrintableText.clean(probe.shown, keepNewlines: false) + ": " + Self.describe(probe))
            } catch {
                let failed = ExitStatus.of(error)
                if failed == .tempFail || failed == .noPermission, status == .ok { status = failed }
                lines.append("check: " + PrintableText.clean(CalendarLocation.redact(operand), keepNewlines: false) + ": error: "
                             + PrintableText.clean("\(error)", keepNewlines: false))
            }
        }
        if scheduling && !settings.calendarInvitations {
            lines.append("note: a server above schedules: the invitations it puts in your calendars wait there, not in "
                         + "your mail; 'calendar-invitations = yes' lets merge find and answer them")
        }
        return (lines.joined(separator: "\n") + "\n", status)
    }

    /// One calendar's finding in words.
    static func describe(_ probe: CalendarProbe) -> String {
        let writable = probe.writable == true ? "writable" : "not writable"
        switch probe.kind {
        case .file:
            return probe.exists ? "a file, \(writable)"
                : "not there yet (accept creates it); its folder is \(writable)"
        case .directory(let holds):
            switch holds {
            case .vdir?: return "a folder of events (vdir), \(writable)"
            case .empty?: return "an empty folder (a vdir with no events yet), \(writable)"
            case .tree(let vdirs)?:
                let names = vdirs.map { URL(fileURLWithPath: $0).lastPathComponent }
                return "a folder of \(vdirs.count) calendar\(vdirs.count == 1 ? "" : "s") (a vdirsyncer tree: "
                    + names.joined(separator: ", ") + "), \(writable); merge and accept cannot write to it itself"
            case .noCalendars?: return "a folder with no calendars in it"
            case nil: return "a folder coolcal cannot list"
            }
        case .collection(let name):
            let named = name.map { " (\(PrintableText.clean($0, keepNewlines: false)))" } ?? ""
            return "a CalDAV calendar\(named); "
                + (probe.schedules == true
                   ? "the server schedules (calendar-auto-schedule): invitations arrive in the calendar itself"
                   : "the server does not schedule (no calendar-auto-schedule): invitations come by mail")
                + (probe.transparent.map { "; schedule-calendar-transp: " + ($0 ? "transparent (its events are free time)" : "opaque") } ?? "")
                + (probe.defaultCalendar.map { found in
                    "; new invitations go to " + PrintableText.clean(found.shown, keepNewlines: false)
                        + (found.isThis ? " (this calendar)" : " (not this calendar)")
                } ?? "")
        }
    }
}
