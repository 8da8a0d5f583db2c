import Foundation
import Testing

/// Calendars as people really have them (issue 14): vdirsyncer trees and their
/// metadata, directories that hold no calendars, Outlook's busy status, tentative
/// events, and the leniency every other reader has.
@Suite struct RealCalendarsTests {
    static let window = ["--from", "2022-08-20T00:00:00Z", "--to", "2022-08-21T00:00:00Z"]

    static func event(_ uid: String, _ summary: String, start: String = "20220820T170000Z",
                      end: String = "20220820T180000Z", extra: [String] = []) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//coolcal tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
          "DTSTAMP:20220801T000000Z", "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(summary)"]
            + extra + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// A fresh directory holding `files` (relative paths; a path ending in `/` is an
    /// empty directory).
    static func tree(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-real-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                continue
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir.path
    }

    static func events(_ run: Run) throws -> [[String: Any]] {
        try #require(try Binary.json(run.stdout)["events"] as? [[String: Any]])
    }

    // MARK: 1, 9: directories

    /// vdirsyncer's filesystem storage: the top folder holds one subfolder per
    /// collection, each with its events (one per file, named by a UUID), a
    /// `displayname` and a `color` file (after `vdirsyncer metasync`), and nothing else.
    @Test func vdirsyncerTreeIsReadFromTheTopFolder() throws {
        let top = try Self.tree([
            "calendars/work/3f1c0d2e.ics": Self.event("w1@example.com", "Standup"),
            "calendars/work/displayname": "Work (Acme)\n",
            "calendars/work/color": "#ff0000ff\n",
            "calendars/family/9a8b7c6d.ics": Self.event("f1@example.com", "Dentist", start: "20220820T190000Z",
                                                        end: "20220820T200000Z"),
            "calendars/family/color": "#00ff00ff",
            "calendars/new/": "",
        ]) + "/calendars"
        let json = try Binary.run(["events", "--json"] + Self.window + [top])
        #expect(json.status == 0)
        #expect(json.stderr == "")
        let events = try Self.events(json)
        #expect(events.map { $0["summary"] as? String } == ["Standup", "Dentist"])
        #expect(events.map { $0["calendar"] as? String } == ["calendars/work", "calendars/family"])
        #expect(events.map { $0["calendar_name"] as? String } == ["Work (Acme)", "family"],
                "the displayname, else the folder name")
        let text = try Binary.run(["events"] + Self.window + [top])
        #expect(text.stdout.contains("Standup  [Work (Acme)]"))
        #expect(text.stdout.contains("Dentist  [family]"))
        let conflicts = try Binary.run(["conflicts", Binary.sample("invite.json"), top])
        #expect(conflicts.status == 1, "both calendars are read: busy")
        #expect(conflicts.stdout.contains("[Work (Acme)]"))
        // A vdir named directly: its displayname too, its label unchanged.
        let one = try Binary.run(["events", "--json"] + Self.window + [top + "/work"])
        #expect(try Self.events(one).first?["calendar"] as? String == "work")
        #expect(try Self.events(one).first?["calendar_name"] as? String == "Work (Acme)")
    }

    /// A typo'd path such as `~`: entries, but no `.ics` files and no vdir subfolders
    /// (an empty `Templates` is no calendar). Never "free".
    @Test func directoryWithoutCalendarsIs66() throws {
        let home = try Self.tree([".bashrc": "alias ll='ls -l'\n", "Documents/notes.txt": "x", "Templates/": ""])
        for command in [["conflicts", Binary.sample("invite.json")], ["events"] + Self.window] {
            let run = try Binary.run(command + [home])
            #expect(run.status == 66)
            #expect(run.stdout == "")
            #expect(run.stderr == "coolcal: error: \(home): no calendars here (no .ics files, no vdir subfolders)\n")
        }
        let accept = try Binary.run(["accept", Binary.sample("invite.json"), home])
        #expect(accept.status == 66)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).sorted() == [".bashrc", "Documents", "Templates"])
    }

    /// An empty directory (a fresh one, a collection `vdirsyncer discover` made) is an
    /// empty calendar: free, said with -v; `accept` into it works.
    @Test func emptyDirectoryIsAnEmptyCalendar() throws {
        let dir = try Self.tree(["cal/": ""]) + "/cal"
        let run = try Binary.run(["conflicts", "-v", Binary.sample("invite.json"), dir])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Free: nothing busy in the window."))
        #expect(run.stderr.contains("coolcal: \(dir): an empty directory: an empty calendar\n"))
        let quiet = try Binary.run(["conflicts", Binary.sample("invite.json"), dir])
        #expect(quiet.stderr == "")
        let accept = try Binary.run(["accept", Binary.sample("invite.json"), dir])
        #expect(accept.status == 0)
        #expect(accept.stdout.hasPrefix("accepted: Family Reunion (id 12): added to "))
        let again = try Binary.run(["conflicts", "--json", Binary.sample("invite.json"), dir])
        let ignored = try #require(try Binary.json(again.stdout)["ignored"] as? [[String: Any]])
        #expect(ignored.first?["reason"] as? String == "this invitation")
    }

    /// `accept` into a tree cannot know which calendar is meant: a usage error naming them.
    @Test func acceptIntoATreeIsRefused() throws {
        let top = try Self.tree(["work/a.ics": Self.event("w1@example.com", "Standup"), "home/displayname": "Home"])
        let run = try Binary.run(["accept", Binary.sample("invite.json"), top])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("coolcal: error: \(top) holds 2 calendars in subfolders (home, work); name the one to write to, such as \(top)/home"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: top).sorted() == ["home", "work"])
    }

    // MARK: 7b, 8: Outlook's busy status, tentative

    /// Outlook (and Exchange's ICS export) writes `X-MICROSOFT-CDO-BUSYSTATUS` and
    /// `X-MICROSOFT-CDO-INTENDEDSTATUS` and no `TRANSP` on many events.
    @Test func outlookBusyStatus() throws {
        let cal = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:Microsoft Exchange Server 2010"]
            + outlook("free", "FREE", hour: 16) + outlook("tent", "TENTATIVE", hour: 17) + outlook("oof", "OOF", hour: 18)
            + outlook("busy", "BUSY", hour: 19) + outlook("opaque", "FREE", hour: 20, transp: "OPAQUE")
            + outlook("intended", nil, hour: 21, intended: "FREE")
            + ["END:VCALENDAR", ""]
        let file = try Binary.temp("outlook.ics", Data(cal.joined(separator: "\r\n").utf8))
        let run = try Binary.run(["conflicts", "--json", Binary.sample("invite.json"), file])
        let doc = try Binary.json(run.stdout)
        let conflicts = try #require(doc["conflicts"] as? [[String: Any]])
        let ignored = try #require(doc["ignored"] as? [[String: Any]])
        #expect(conflicts.map { $0["uid"] as? String } == ["tent", "oof", "busy", "opaque"])
        #expect(conflicts.map { $0["tentative"] as? Bool } == [true, false, false, false])
        #expect(ignored.map { $0["uid"] as? String } == ["free", "intended"])
        #expect(ignored.map { $0["reason"] as? String } == ["shown as free", "shown as free"])
        #expect(ignored.allSatisfy { $0["busy"] as? Bool == false && $0["transparent"] as? Bool == false })
        let text = try Binary.run(["conflicts", Binary.sample("invite.json"), file])
        #expect(text.stdout.contains("free  [outlook.ics]  (shown as free)"))
        #expect(text.stdout.contains("tent  [outlook.ics]  overlaps  (tentative)"))
    }

    private func outlook(_ uid: String, _ status: String?, hour: Int, transp: String? = nil, intended: String? = nil) -> [String] {
        ["BEGIN:VEVENT", "UID:\(uid)", "SUMMARY:\(uid)", "DTSTAMP:20220801T000000Z",
         "DTSTART:20220820T\(hour)0000Z", "DTEND:20220820T\(hour)3000Z"]
            + (status.map { ["X-MICROSOFT-CDO-BUSYSTATUS:\($0)"] } ?? [])
            + (intended.map { ["X-MICROSOFT-CDO-INTENDEDSTATUS:\($0)"] } ?? [])
            + (transp.map { ["TRANSP:\($0)"] } ?? []) + ["END:VEVENT"]
    }

    /// Google and Apple write `STATUS:TENTATIVE` for "maybe" events and an attendee's
    /// `PARTSTAT=TENTATIVE` for a "Maybe" answer.
    @Test func tentativeIsBusyButShownAsTentative() throws {
        let cal = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
                   "BEGIN:VEVENT", "UID:maybe@google.com", "DTSTAMP:20220801T000000Z", "DTSTART:20220820T170000Z",
                   "DTEND:20220820T180000Z", "STATUS:TENTATIVE", "SUMMARY:Maybe lunch", "END:VEVENT",
                   "BEGIN:VEVENT", "UID:answer@google.com", "DTSTAMP:20220801T000000Z", "DTSTART:20220820T190000Z",
                   "DTEND:20220820T200000Z", "STATUS:CONFIRMED", "SUMMARY:Review",
                   "ORGANIZER:mailto:boss@example.com",
                   "ATTENDEE;CN=Me;PARTSTAT=TENTATIVE;ROLE=REQ-PARTICIPANT:mailto:me@example.com", "END:VEVENT",
                   "BEGIN:VEVENT", "UID:other@google.com", "DTSTAMP:20220801T000000Z", "DTSTART:20220820T210000Z",
                   "DTEND:20220820T220000Z", "SUMMARY:Sure", "ATTENDEE;PARTSTAT=TENTATIVE:mailto:someone@example.com",
                   "END:VEVENT", "END:VCALENDAR", ""]
        let file = try Binary.temp("google.ics", Data(cal.joined(separator: "\r\n").utf8))
        let json = try Binary.run(["conflicts", "--json", "--me", "me@example.com", Binary.sample("invite.json"), file])
        #expect(json.status == 1)
        let conflicts = try #require(try Binary.json(json.stdout)["conflicts"] as? [[String: Any]])
        #expect(conflicts.map { $0["uid"] as? String } == ["maybe@google.com", "answer@google.com", "other@google.com"])
        #expect(conflicts.map { $0["tentative"] as? Bool } == [true, true, false])
        #expect(conflicts.allSatisfy { $0["busy"] as? Bool == true })
        let text = try Binary.run(["events", "--me", "me@example.com"] + Self.window + [file])
        #expect(text.stdout.contains("Maybe lunch  [google.ics]  (tentative)"))
        #expect(text.stdout.contains("Review  [google.ics]  (tentative)"))
        #expect(!text.stdout.contains("Sure  [google.ics]  (tentative)"))
    }

    // MARK: 10: leniency

    /// A blank line before BEGIN:VCALENDAR (found in five public test calendars, e.g.
    /// hand-made fixtures of the icalendar and ical.js projects): read, on both paths.
    @Test func leadingBlankLinesAreRead() throws {
        let file = try Binary.temp("blank.ics", Data(("\r\n \r\n" + Self.event("b1", "After blank lines")).utf8))
        for window in [Self.window, ["--from", "2022-08-20T00:00:00Z", "--to", "2022-08-20T01:00:00Z"]] {
            let run = try Binary.run(["events", "--json"] + window + [file])
            #expect(run.status == 0)
            #expect(run.stderr == "")
        }
        let run = try Binary.run(["events", "--json"] + Self.window + [file])
        #expect(try Self.events(run).map { $0["summary"] as? String } == ["After blank lines"])
        let garbage = try Binary.temp("garbage.ics", Data("\n\nhello\n".utf8))
        let refused = try Binary.run(["events"] + Self.window + [garbage])
        #expect(refused.status == 65)
        #expect(refused.stderr == "coolcal: error: \(garbage): not an iCalendar file (line 3 is not BEGIN:VCALENDAR)\n")
    }

    /// libical's own test data has `DTEND:19970701T1100000Z` (a digit too many).
    @Test func malformedDTENDIsWarned() throws {
        let file = try Binary.temp("badend.ics", Data(Self.event("bad-end@example.com", "Bad end",
                                                               start: "20220820T170000Z", end: "20220820T1800000Z").utf8))
        let run = try Binary.run(["events", "--json"] + Self.window + [file])
        #expect(run.status == 0)
        #expect(try Self.events(run).first?["end"] as? String == "2022-08-20T17:00:00Z")
        #expect(run.stderr == "coolcal: warning: \(file): event \"Bad end\" (bad-end@example.com): DTEND is not valid "
                + "(Can't parse as DATE-TIME value in DTEND property. Removing entire property: 20220820T1800000Z); "
                + "read as if it had none: it ends when it starts\n")
    }
}
