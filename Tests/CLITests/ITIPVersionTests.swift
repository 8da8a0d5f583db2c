import Foundation
import Testing

/// iTIP corner cases found in review: bytes a cancellation must keep, instances
/// named in another form, out-of-order arrival, zone names two organizers share,
/// answers that a re-accept must fix, vdirs and merge.
@Suite struct ITIPVersionTests {
    let me = "me@example.com"
    let uid = "series-1@example.org"

    /// A weekly series (or one instance of it) in New York, as a mail client sends it.
    func message(method: String = "REQUEST", sequence: Int = 0, hour: Int = 10, recurrenceID: String? = nil,
                 ridUTC: Bool = false, rrule: Bool = true, zoneName: String = "America/New_York",
                 offsets: (String, String) = ("-0500", "-0400")) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "METHOD:\(method)",
                     "BEGIN:VTIMEZONE", "TZID:\(zoneName)",
                     "BEGIN:STANDARD", "DTSTART:19701101T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
                     "TZOFFSETFROM:\(offsets.1)", "TZOFFSETTO:\(offsets.0)", "END:STANDARD",
                     "BEGIN:DAYLIGHT", "DTSTART:19700308T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
                     "TZOFFSETFROM:\(offsets.0)", "TZOFFSETTO:\(offsets.1)", "END:DAYLIGHT", "END:VTIMEZONE",
                     "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260201T000000Z", "SEQUENCE:\(sequence)",
                     "SUMMARY:Weekly sync", "ORGANIZER:mailto:boss@example.org",
                     "ATTENDEE;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:\(me)"]
        if let recurrenceID {
            lines.append(ridUTC ? "RECURRENCE-ID:\(recurrenceID)" : "RECURRENCE-ID;TZID=\(zoneName):\(recurrenceID)")
            lines += [String(format: "DTSTART;TZID=\(zoneName):20260309T%02d0000", hour),
                      String(format: "DTEND;TZID=\(zoneName):20260309T%02d3000", hour)]
        } else {
            lines += [String(format: "DTSTART;TZID=\(zoneName):20260302T%02d0000", hour),
                      String(format: "DTEND;TZID=\(zoneName):20260302T%02d3000", hour)]
            if rrule { lines.append("RRULE:FREQ=WEEKLY;COUNT=4") }
        }
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map { $0 + "\r\n" }.joined()
    }

    func file(_ text: String) throws -> String { try Binary.temp("m.ics", Data(text.utf8)) }

    func calendar(_ body: String = "") throws -> String {
        try Binary.temp("cal.ics", Data(("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//me//EN\n" + body + "END:VCALENDAR\n").utf8))
    }

    func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func coolcal(_ args: [String], extra: [String: String] = [:]) throws -> Run {
        var env = ["COOLCAL_STATE": try Binary.temp("state/.keep", Data()) + "-dir"]
        env.merge(extra) { $1 }
        return try Binary.run(args, env: env)
    }

    /// Instances of the series on 2026-03-02 … 2026-03-31: "start busy" each.
    func instances(_ cal: String) throws -> [String] {
        let run = try Binary.run(["events", "--json", "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z", cal])
        #expect(run.status == 0, "\(run.stderr)")
        return (try Binary.json(run.stdout)["events"] as? [[String: Any]] ?? [])
            .filter { $0["uid"] as? String == uid }
            .map { "\($0["start"] as? String ?? "") \($0["busy"] as? Bool ?? false)" }
    }

    @Test func cancellingKeepsEveryOtherByteOfTheStoredEvent() throws {
        // Values libical cannot read, trailing spaces, a Latin-1 byte, a VALARM with its own STATUS-like lines.
        // (Its ORGANIZER is the cancellation's: only the organizer may cancel it.)
        var stored = Data("BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20260201T000000Z\nSEQUENCE:0\nORGANIZER:mailto:boss@example.org\nCREATED:2026-01-01 10:00\nPRIORITY:high\nSUMMARY:Planning  \nDESCRIPTION:caf".utf8)
        stored.append(0xE9)
        stored.append(Data("\nSTATUS:CONFIRMED\nDTSTART:20260302T150000Z\nDTEND:20260302T153000Z\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT5M\nDESCRIPTION:x\nEND:VALARM\nEND:VEVENT\n".utf8))
        var whole = Data("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//me//EN\n".utf8)
        whole.append(stored)
        whole.append(Data("END:VCALENDAR\n".utf8))
        let cal = try Binary.temp("cal.ics", whole)
        let run = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 1, rrule: false)), cal])
        #expect(run.stdout.hasSuffix("marked cancelled in \(cal)\n"), "\(run.stdout)\(run.stderr)")
        var expected = Data("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//me//EN\n".utf8)
        expected.append(Data("BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20260201T000000Z\nSEQUENCE:1\nORGANIZER:mailto:boss@example.org\nCREATED:2026-01-01 10:00\nPRIORITY:high\nSUMMARY:Planning  \nDESCRIPTION:caf".utf8))
        expected.append(0xE9)
        expected.append(Data("\nSTATUS:CANCELLED\nDTSTART:20260302T150000Z\nDTEND:20260302T153000Z\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT5M\nDESCRIPTION:x\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n".utf8))
        #expect(try read(cal) == expected, "only STATUS and SEQUENCE changed")
    }

    @Test func anInstanceNamedInUTCIsTheSameInstance() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", "--me", me, try file(message()), cal]).status == 0)
        #expect(try coolcal(["accept", try file(message(sequence: 1, hour: 14, recurrenceID: "20260309T100000")), cal]).status == 0)
        // 2026-03-09 10:00 New York (after the DST change) is 14:00Z.
        let cancel = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 2, hour: 14, recurrenceID: "20260309T140000Z", ridUTC: true)), cal])
        #expect(cancel.stdout.hasSuffix("marked cancelled in \(cal)\n"), "\(cancel.stdout)\(cancel.stderr)")
        #expect(try instances(cal) == ["2026-03-02T15:00:00Z true", "2026-03-09T18:00:00Z false",
                                       "2026-03-16T14:00:00Z true", "2026-03-23T14:00:00Z true"])
        #expect(String(decoding: try read(cal), as: UTF8.self).components(separatedBy: "BEGIN:VEVENT").count == 3,
                "the moved instance was marked, no second override added")
    }

    @Test func aSeriesCancelIsOrderedAgainstTheSeriesOnly() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message()), cal]).status == 0)
        #expect(try coolcal(["accept", try file(message(sequence: 2, hour: 14, recurrenceID: "20260309T100000")), cal]).status == 0)
        let cancel = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 1, rrule: false)), cal])
        #expect(cancel.stdout.hasSuffix("marked cancelled in \(cal)\n"), "\(cancel.stdout)")
        #expect(try instances(cal).allSatisfy { $0.hasSuffix("false") })
    }

    @Test func anInstanceThatCameFirstDoesNotBlockItsSeries() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message(sequence: 1, hour: 14, recurrenceID: "20260309T100000")), cal]).status == 0)
        let series = try coolcal(["accept", try file(message()), cal])
        #expect(series.stdout.hasSuffix("added to \(cal)\n"), "\(series.stdout)")
        // The moved instance (SEQUENCE 1, newer than the series) stays moved.
        #expect(try instances(cal) == ["2026-03-02T15:00:00Z true", "2026-03-09T18:00:00Z true",
                                       "2026-03-16T14:00:00Z true", "2026-03-23T14:00:00Z true"])
    }

    @Test func aStaleInstanceIsNotAddedOnTopOfANewerSeries() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message(sequence: 5, hour: 16)), cal]).status == 0)
        let before = try read(cal)
        let stale = try coolcal(["accept", try file(message(sequence: 1, hour: 14, recurrenceID: "20260309T100000")), cal])
        #expect(stale.stdout.hasPrefix("ignored: "), "\(stale.stdout)")
        #expect(try read(cal) == before)
    }

    @Test func twoZonesOfTheSameNameKeepTheirOwnRules() throws {
        let cal = try calendar()
        let india = message(rrule: false, zoneName: "Customized Time Zone", offsets: ("+0530", "+0530"))
            .replacingOccurrences(of: "UID:\(uid)", with: "UID:india@example.org")
        let pacific = message(rrule: false, zoneName: "Customized Time Zone", offsets: ("-0800", "-0700"))
        #expect(try coolcal(["accept", try file(india), cal]).status == 0)
        #expect(try coolcal(["accept", try file(pacific), cal]).status == 0)
        // 2026-03-02 10:00 at -0800 is 18:00Z; at +0530 it is 04:30Z.
        #expect(try instances(cal) == ["2026-03-02T18:00:00Z true"])
        let run = try Binary.run(["events", "--json", "--from", "2026-03-01T00:00:00Z", "--to", "2026-03-03T00:00:00Z", cal])
        let india0 = (try Binary.json(run.stdout)["events"] as? [[String: Any]] ?? []).first { $0["uid"] as? String == "india@example.org" }
        #expect(india0?["start"] as? String == "2026-03-02T04:30:00Z")
    }

    @Test func acceptingAgainWithMeRecordsMyAnswer() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message()), cal]).status == 0)
        let again = try coolcal(["accept", "--me", me, try file(message()), cal])
        #expect(again.stdout.hasSuffix("updated in \(cal)\n"), "\(again.stdout)")
        let text = String(decoding: try read(cal), as: UTF8.self).replacingOccurrences(of: "\n ", with: "")
        #expect(text.contains("PARTSTAT=ACCEPTED") && !text.contains("NEEDS-ACTION"))
        let third = try coolcal(["accept", "--me", me, try file(message()), cal])
        #expect(third.stdout.hasSuffix("already in \(cal), unchanged\n"))
    }

    @Test func mergeDoesNotRecordAStaleVersionAsAnAnswer() throws {
        let cal = try calendar()
        let state = try Binary.temp("state/.keep", Data()) + "-dir"
        #expect(try Binary.run(["accept", try file(message(sequence: 5)), cal], env: ["COOLCAL_STATE": state]).status == 0)
        let spool = URL(fileURLWithPath: try Binary.temp("spool/.keep", Data())).deletingLastPathComponent()
        try Data(message(sequence: 1).utf8).write(to: spool.appendingPathComponent("a.ics"))
        let run = try Binary.run(["merge", "--me", me, "--policy", "accept-all", "--spool", spool.path, cal], env: ["COOLCAL_STATE": state])
        #expect(run.stdout.hasPrefix("ignored   a.ics  Weekly sync"), "\(run.stdout)\(run.stderr)")
        let note = try String(contentsOf: spool.appendingPathComponent("done/a.ics.outcome"), encoding: .utf8)
        #expect(note.replacingOccurrences(of: " ", with: "").contains(#""outcome":"ignored""#))
        let responses = try Binary.run(["responses", "--json"], env: ["COOLCAL_STATE": state])
        #expect(responses.stdout.components(separatedBy: #""answer""#).count == 2, "only the first accept: \(responses.stdout)")
    }

    @Test func ifFreeReadsTheWholeVdir() throws {
        let vdir = URL(fileURLWithPath: try Binary.temp("vd/.keep", Data())).deletingLastPathComponent()
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:busy@x\r\nSUMMARY:Busy\r\nDTSTART:20260302T150000Z\r\nDTEND:20260302T160000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: vdir.appendingPathComponent("busy.ics"))
        let run = try coolcal(["accept", "--if-free", try file(message(rrule: false)), vdir.path])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("Busy  [vd]"), "\(run.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") } == ["busy.ics"])
    }

    @Test func aVdirKeepsOneCopyWhenTheDomainChanges() throws {
        let vdir = URL(fileURLWithPath: try Binary.temp("vd/.keep", Data())).deletingLastPathComponent()
        let old = try Binary.configHome("domain = old.example\n"), new = try Binary.configHome("domain = new.example\n")
        #expect(try coolcal(["accept", Binary.sample("invite.json"), vdir.path], extra: ["XDG_CONFIG_HOME": old]).status == 0)
        let again = try coolcal(["accept", Binary.sample("invite.json"), vdir.path], extra: ["XDG_CONFIG_HOME": new])
        #expect(again.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }.count == 1)
    }

    @Test func dryRunOfACancellationShowsTheStoredEventCancelled() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message()), cal]).status == 0)
        let before = try read(cal)
        let run = try coolcal(["accept", "--dry-run", try file(message(method: "CANCEL", sequence: 1, rrule: false)), cal])
        #expect(run.stdout.contains("STATUS:CANCELLED") && run.stdout.contains("RRULE:FREQ=WEEKLY;COUNT=4"), "\(run.stdout)")
        #expect(try read(cal) == before)
        let stale = try coolcal(["accept", "--dry-run", try file(message(method: "CANCEL", sequence: 0, rrule: false)
            .replacingOccurrences(of: "DTSTAMP:20260201T000000Z", with: "DTSTAMP:20250101T000000Z")), cal])
        #expect(stale.stdout.isEmpty && stale.stderr.contains("nothing would be written: the calendar has a newer version"))
    }

    @Test func myAnswerUpdateKeepsANewerMovedInstance() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message()), cal]).status == 0)
        #expect(try coolcal(["accept", try file(message(sequence: 1, hour: 14, recurrenceID: "20260309T100000")), cal]).status == 0)
        let answer = try coolcal(["accept", "--me", me, try file(message()), cal])
        #expect(answer.stdout.hasSuffix("updated in \(cal)\n"))
        #expect(try instances(cal) == ["2026-03-02T15:00:00Z true", "2026-03-09T18:00:00Z true",
                                       "2026-03-16T14:00:00Z true", "2026-03-23T14:00:00Z true"])
    }

    @Test func aZoneTheInvitationDoesNotDefineIsNotRenamed() throws {
        // The calendar defines America/New_York with other rules (a fixed +0100); the
        // invitation names the zone without a VTIMEZONE of its own.
        let zone = message().components(separatedBy: "BEGIN:VEVENT")[0]
            .components(separatedBy: "BEGIN:VTIMEZONE")[1].components(separatedBy: "END:VTIMEZONE")[0]
        let fixed = "\nTZID:America/New_York\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0100\nEND:STANDARD\n"
        let cal = try calendar("BEGIN:VTIMEZONE" + fixed + "END:VTIMEZONE\n")
        let bare = message(rrule: false).replacingOccurrences(of: "BEGIN:VTIMEZONE" + zone + "END:VTIMEZONE\r\n", with: "")
        #expect(!bare.contains("VTIMEZONE"))
        #expect(try coolcal(["accept", try file(bare), cal]).status == 0)
        #expect(!String(decoding: try read(cal), as: UTF8.self).contains("America/New_York 2"))
        // Read by the calendar's own definition, as its other events are: 10:00 at +0100.
        #expect(try instances(cal) == ["2026-03-02T09:00:00Z true"])
    }

    @Test func anOldSeriesCancelDoesNotCancelNewerStoredInstances() throws {
        let cal = try calendar()
        #expect(try coolcal(["accept", try file(message(sequence: 3, hour: 14, recurrenceID: "20260309T100000")), cal]).status == 0)
        let before = try read(cal)
        let cancel = try coolcal(["accept", try file(message(method: "CANCEL", sequence: 0, rrule: false)), cal])
        #expect(cancel.stdout.hasPrefix("ignored: "), "\(cancel.stdout)")
        #expect(try read(cal) == before)
    }

    @Test func renamedZonesAreReusedAcrossUpdates() throws {
        let cal = try calendar()
        let first = message(rrule: false, zoneName: "Customized Time Zone", offsets: ("+0100", "+0100"))
            .replacingOccurrences(of: "UID:\(uid)", with: "UID:other@example.org")
        #expect(try coolcal(["accept", try file(first), cal]).status == 0)
        for sequence in 0...2 {
            let update = message(sequence: sequence, rrule: false, zoneName: "Customized Time Zone", offsets: ("+0500", "+0500"))
            #expect(try coolcal(["accept", try file(update), cal]).status == 0)
        }
        let text = String(decoding: try read(cal), as: UTF8.self)
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count == 3, "the original and one renamed zone")
        #expect(text.contains("TZID:Customized Time Zone 2") && !text.contains("Customized Time Zone 3"))
        // 10:00 at +0500 is 05:00Z.
        #expect(try instances(cal) == ["2026-03-02T05:00:00Z true"])
    }

    /// An all-day event that covers three daily instances makes all three busy; an
    /// instance moved before DTSTART is still checked; an excluded DTSTART is not.
    @Test func everyInstanceAnEventReachesIsBusy() throws {
        func series(_ extra: [String]) -> String {
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:t", "METHOD:REQUEST", "BEGIN:VEVENT", "UID:daily@x",
              "DTSTAMP:20260201T000000Z", "SUMMARY:Daily", "DTSTART:20260302T100000Z", "DTEND:20260302T103000Z"]
             + extra).map { $0 + "\r\n" }.joined()
        }
        let daily = series(["RRULE:FREQ=DAILY;COUNT=4", "END:VEVENT", "END:VCALENDAR"])
        let busy = try Binary.temp("busy.ics", Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:t\r\n"
            + "BEGIN:VEVENT\r\nUID:conf@x\r\nSUMMARY:Conference\r\nDTSTART;VALUE=DATE:20260303\r\nDTEND;VALUE=DATE:20260306\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nUID:early@x\r\nSUMMARY:Early\r\nDTSTART:20260302T080000Z\r\nDTEND:20260302T090000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n").utf8))
        func free(_ invitation: String) throws -> [String] {
            let run = try Binary.run(["conflicts", "--json", "--buffer", "0", "--tz", "UTC", try file(invitation), busy])
            let doc = try Binary.json(run.stdout)
            let list = doc["instances"] as? [[String: Any]] ?? [["start": (doc["invite"] as? [String: Any])?["start"] ?? "", "free": doc["free"] ?? true]]
            return list.map { "\($0["start"] as? String ?? "") \($0["free"] as? Bool ?? true)" }
        }
        #expect(try free(daily) == ["2026-03-02T10:00:00Z true", "2026-03-03T10:00:00Z false",
                                    "2026-03-04T10:00:00Z false", "2026-03-05T10:00:00Z false"])
        // The first instance moved to 08:00, before DTSTART: it meets "Early".
        let moved = series(["RRULE:FREQ=DAILY;COUNT=2", "END:VEVENT", "BEGIN:VEVENT", "UID:daily@x", "DTSTAMP:20260201T000000Z",
                            "RECURRENCE-ID:20260302T100000Z", "SUMMARY:Daily", "DTSTART:20260302T080000Z",
                            "DTEND:20260302T083000Z", "END:VEVENT", "END:VCALENDAR"])
        #expect(try free(moved) == ["2026-03-02T08:00:00Z false", "2026-03-03T10:00:00Z false"])
        // DTSTART excluded, one instance left: that one is the invitation.
        let excluded = series(["RRULE:FREQ=DAILY;COUNT=2", "EXDATE:20260302T100000Z", "END:VEVENT", "END:VCALENDAR"])
        #expect(try free(excluded) == ["2026-03-03T10:00:00Z false"])
        let none = series(["RRULE:FREQ=DAILY;COUNT=1", "EXDATE:20260302T100000Z", "END:VEVENT", "END:VCALENDAR"])
        let refused = try Binary.run(["conflicts", try file(none), busy])
        #expect(refused.status == 65 && refused.stderr.contains("the series has no instance (all excluded or cancelled)"))
    }

    @Test func passwordsWithReservedCharactersAreNeverShown() throws {
        for secret in ["se#cret", "pa/ss", "pa?ss"] {
            let run = try Binary.run(["events", "--from", "2026-03-01", "http://alice:\(secret)@127.0.0.1:1/alice/cal/"])
            #expect(run.status != 0)
            #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret), "\(run.stderr)")
        }
    }
}
