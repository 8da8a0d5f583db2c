import Foundation
import Testing

/// Issue #44, settled "which properties are the user's": the state keeps what the
/// organizer last sent, so an alarm the organizer sent is replaced by its next one (not
/// doubled, not kept once it drops it), while what I added — a property, an `X-` line of
/// my own (folded), an alarm — survives each series update byte for byte. A copy stored
/// with no record keeps today's rule: VALARMs and TRANSP, nothing else.
@Suite struct OrganizerLinesTests {
    typealias U = UserDataSurvivesTests

    static func organizerAlarm(_ minutes: Int) -> [String] {
        ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT\(minutes)M", "DESCRIPTION:alice says \(minutes)", "END:VALARM"]
    }

    /// What I add to the stored series, by hand: a category, a folded note of my own, an alarm.
    static let mine = "CATEGORIES:mine\r\nX-MY-NOTE:bring the slides\r\n  and the projector\r\n" + U.alarm

    /// Adds `lines` to the stored series (before its `END:VEVENT`), and marks it free when asked.
    static func edit(_ desk: ProcessDesk, adding lines: String, free: Bool = false) throws {
        var text = try desk.text()
        let series = try #require(U.blocks(text)[""])
        var edited = series + lines
        if free { edited = edited.replacingOccurrences(of: "TRANSP:OPAQUE\r\n", with: "TRANSP:TRANSPARENT\r\n") }
        text = text.replacingOccurrences(of: series, with: edited)
        try Data(text.utf8).write(to: URL(fileURLWithPath: desk.calendar))
    }

    static func occurrences(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func anOrganizersAlarmIsReplacedByItsNextAndGoesWhenDropped() throws {
        let desk = try ProcessDesk()
        let first = try desk.process(U.request(sequence: 0, title: "Weekly", override: false, extra: Self.organizerAlarm(10)))
        #expect(first.text.hasPrefix("added"), "\(first.text)\(first.stderr)")
        #expect(Self.occurrences("DESCRIPTION:alice says 10\r\n", in: try #require(U.blocks(try desk.text())[""])) == 1)
        let second = try desk.process(U.request(sequence: 1, title: "Weekly", override: false, extra: Self.organizerAlarm(5)))
        #expect(second.text.hasPrefix("updated"), "\(second.text)\(second.stderr)")
        let replaced = try #require(U.blocks(try desk.text())[""])
        #expect(Self.occurrences("BEGIN:VALARM\r\n", in: replaced) == 1, "one alarm, the organizer's new one: \(replaced)")
        #expect(replaced.contains("DESCRIPTION:alice says 5\r\n") && !replaced.contains("alice says 10"), "\(replaced)")
        let third = try desk.process(U.request(sequence: 2, title: "Weekly", override: false))
        #expect(third.text.hasPrefix("updated"), "\(third.text)\(third.stderr)")
        let dropped = try #require(U.blocks(try desk.text())[""])
        #expect(!dropped.contains("BEGIN:VALARM"), "the organizer dropped its alarm: \(dropped)")
    }

    @Test func whatIAddedSurvivesEachSeriesUpdateByteForByte() throws {
        let desk = try ProcessDesk()
        let first = try desk.process(U.request(sequence: 0, title: "Weekly", override: false, extra: Self.organizerAlarm(10)))
        #expect(first.text.hasPrefix("added"), "\(first.text)\(first.stderr)")
        try Self.edit(desk, adding: Self.mine)
        for (sequence, title) in [(1, "Weekly sync"), (2, "Weekly review")] {
            let update = try desk.process(U.request(sequence: sequence, title: title, override: sequence == 2,
                                                    extra: Self.organizerAlarm(5 + sequence)))
            #expect(update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
            let after = U.blocks(try desk.text())
            let series = try #require(after[""])
            #expect(series.contains("SUMMARY:\(title)\r\n"), "the organizer's title: \(series)")
            for line in ["CATEGORIES:mine\r\n", "X-MY-NOTE:bring the slides\r\n  and the projector\r\n", U.alarm] {
                #expect(Self.occurrences(line, in: series) == 1, "update \(sequence): \(line) once, byte for byte: \(series)")
            }
            #expect(Self.occurrences("BEGIN:VALARM\r\n", in: series) == 2, "mine and the organizer's latest: \(series)")
            #expect(series.contains("DESCRIPTION:alice says \(5 + sequence)\r\n") && !series.contains("alice says 10"), "\(series)")
        }
        // The override that arrived with the second update took what is mine from the series.
        let override = try #require(U.blocks(try desk.text())["RECURRENCE-ID:20310310T100000Z"])
        #expect(override.contains(Self.mine), "\(override)")
    }

    /// What the event is stays the organizer's word: a title I edited gives way to the one
    /// its update sends (I must see the organizer's change), while a LOCATION I added, of
    /// which the organizer sends none, stays mine.
    @Test func theOrganizersNewTitleWinsOverMineAndMyOwnLocationStays() throws {
        let desk = try ProcessDesk()
        let first = try desk.process(U.request(sequence: 0, title: "Weekly", override: false))
        #expect(first.text.hasPrefix("added"), "\(first.text)\(first.stderr)")
        var text = try desk.text()
        let series = try #require(U.blocks(text)[""])
        let edited = series.replacingOccurrences(of: "SUMMARY:Weekly\r\n", with: "SUMMARY:My weekly\r\n") + "LOCATION:my desk\r\n"
        #expect(edited != series + "LOCATION:my desk\r\n", "the stored title was edited")
        text = text.replacingOccurrences(of: series, with: edited)
        try Data(text.utf8).write(to: URL(fileURLWithPath: desk.calendar))
        let update = try desk.process(U.request(sequence: 1, title: "Weekly sync", override: false))
        #expect(update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
        let after = try #require(U.blocks(try desk.text())[""])
        #expect(Self.occurrences("SUMMARY:", in: after) == 1 && after.contains("SUMMARY:Weekly sync\r\n"), "\(after)")
        #expect(Self.occurrences("LOCATION:my desk\r\n", in: after) == 1, "\(after)")
    }

    @Test func anEventStoredWithNoRecordKeepsTodaysRule() throws {
        let desk = try ProcessDesk()
        let first = try desk.process(U.request(sequence: 0, title: "Weekly", override: false, extra: Self.organizerAlarm(10)))
        #expect(first.text.hasPrefix("added"), "\(first.text)\(first.stderr)")
        // As if stored before coolcal kept records.
        let sql = try Spawn.run([], shell: "/usr/bin/sqlite3 '\(desk.state)/state.db' 'DELETE FROM organizer_lines'")
        #expect(sql.status == 0, "\(sql.stderr)")
        try Self.edit(desk, adding: "CATEGORIES:mine\r\n" + U.alarm, free: true)
        let update = try desk.process(U.request(sequence: 1, title: "Weekly sync", override: false, extra: Self.organizerAlarm(5)))
        #expect(update.text.hasPrefix("updated"), "\(update.text)\(update.stderr)")
        let series = try #require(U.blocks(try desk.text())[""])
        // Today's rule: every stored VALARM (the organizer's old one too) and TRANSP; not the category.
        #expect(Self.occurrences(U.alarm, in: series) == 1, "\(series)")
        #expect(series.contains("DESCRIPTION:alice says 10\r\n") && series.contains("DESCRIPTION:alice says 5\r\n"), "\(series)")
        #expect(series.contains("TRANSP:TRANSPARENT\r\n") && !series.contains("TRANSP:OPAQUE"), "\(series)")
        #expect(!series.contains("CATEGORIES:mine"), "\(series)")
    }

    /// `accept` records what it wrote too: its next update replaces the organizer's alarm.
    @Test func acceptRecordsWhatTheOrganizerSent() throws {
        let cal = try Binary.temp("cal.ics", Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nEND:VCALENDAR\r\n".utf8))
        let env = ["COOLCAL_STATE": try Binary.temp("state/.keep", Data()) + "-dir"]
        for (sequence, minutes) in [(0, 10), (1, 5)] {
            let mail = U.request(sequence: sequence, title: "Weekly", override: false, extra: Self.organizerAlarm(minutes))
            let ics = mail.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            let run = try Binary.run(["accept", "--me", OrganizerBindingTests.me, try Binary.temp("invite.ics", Data(ics.utf8)), cal], env: env)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        }
        let series = try #require(U.blocks(try String(contentsOfFile: cal, encoding: .utf8))[""])
        #expect(Self.occurrences("BEGIN:VALARM\r\n", in: series) == 1 && series.contains("DESCRIPTION:alice says 5\r\n"), "\(series)")
    }
}
