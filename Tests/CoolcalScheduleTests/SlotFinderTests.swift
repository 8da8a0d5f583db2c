import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalICal
@testable import CoolcalCalendars
@testable import CoolcalInvite
@testable import CoolcalSchedule
@testable import CoolcalTestSupport

/// `--suggest`: free slots across a DST change, each checked by the conflict finder.
@Suite struct SlotFinderTests {
    let body = vevent("standup", "SUMMARY:Standup", "DTSTART;TZID=America/New_York:20240304T090000", "DURATION:PT1H",
                      "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
        + vevent("lunch", "SUMMARY:Lunch", "DTSTART;TZID=America/New_York:20240304T120000",
                 "DTEND;TZID=America/New_York:20240304T133000", "RRULE:FREQ=DAILY")

    func setup() throws -> (SlotFinder, Invite, [LoadedCalendar], OccurrenceExpander) {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let text = "BEGIN:VCALENDAR\r\n" + body + "END:VCALENDAR\r\n"
        let calendar = LoadedCalendar(name: "w.ics", color: nil, files: [try ICalReader.read(Data(text.utf8), file: "w.ics")])
        let invite = Invite(id: .number(1), title: "T", start: .instant(try utc("2024-03-08T19:00:00Z")),
                            end: .instant(try utc("2024-03-08T20:00:00Z")), source: "x")
        let finder = ConflictFinder(buffer: Buffer(days: 0, seconds: 3600), zone: zone)
        let expander = OccurrenceExpander(options: ExpansionOptions(floatingZone: zone), diagnostics: Diagnostics())
        return (SlotFinder(finder: finder, hours: .standard, weekends: false), invite, [calendar], expander)
    }

    @Test func slotsSkipBusyTimeWeekendsAndFollowTheWallClockAcrossDST() throws {
        let (slots, invite, calendars, expander) = try setup()
        let occurrences = expander.occurrences(in: slots.searchWindow(for: invite), calendars: calendars)
        let found = slots.suggestions(for: invite, count: 4, occurrences: occurrences)
        // Friday 2024-03-08 is EST (−5): 14:30, 15:30, 16:30 local; lunch plus the hour of
        // buffer rules out 14:00 and 14:15, 18:00 closes the day. Saturday and Sunday are
        // skipped; Monday is EDT (−4): before lunch nothing fits between standup and
        // lunch with the buffer, so 14:30 local again.
        #expect(found.map(\.start.jsonString) == [
            "2024-03-08T19:30:00Z", "2024-03-08T20:30:00Z", "2024-03-08T21:30:00Z", "2024-03-11T18:30:00Z",
        ])
        #expect(found.allSatisfy { slots.finder.span(of: $0).end - slots.finder.span(of: $0).start == 3600 })
    }

    @Test func everySuggestedSlotIsFreeForTheConflictFinder() throws {
        let (slots, invite, calendars, expander) = try setup()
        let occurrences = expander.occurrences(in: slots.searchWindow(for: invite), calendars: calendars)
        let found = slots.suggestions(for: invite, count: 25, occurrences: occurrences)
        #expect(found.count == 25)
        let zone = SystemZone(slots.finder.zone)
        for slot in found {
            // An independent expansion for just this slot's window.
            let window = slots.finder.window(for: slot)
            let report = slots.finder.report(for: slot, occurrences: expander.occurrences(in: window, calendars: calendars))
            #expect(report.free, "slot \(slot.start.jsonString) is not free")
            let span = slots.finder.span(of: slot)
            let local = zone.localFields(ofUTC: span.start)
            let minutes = local.hour * 60 + local.minute
            #expect(minutes >= 9 * 60 && minutes + 60 <= 18 * 60, "outside working hours")
            #expect(local.minute % 15 == 0)
            let weekday = ((CivilDateTime.daysFromCivil(local.year, local.month, local.day) % 7) + 11) % 7
            #expect(weekday != 0 && weekday != 6, "on a weekend")
        }
        let starts = found.map { slots.finder.span(of: $0).start }
        #expect(starts == starts.sorted())
        #expect(zip(found, found.dropFirst()).allSatisfy { slots.finder.span(of: $0).end <= slots.finder.span(of: $1).start })
    }

    @Test func weekendsAndHoursCanBeChanged() throws {
        var (slots, invite, calendars, expander) = try setup()
        slots.weekends = true
        slots.hours = try #require(WorkingHours(parsing: "07:00-08:00"))
        let occurrences = expander.occurrences(in: slots.searchWindow(for: invite), calendars: calendars)
        let found = slots.suggestions(for: invite, count: 2, occurrences: occurrences)
        // 07:00 local: the standup at 09:00 is an hour after the slot ends, just outside
        // the buffer; Saturday now counts.
        #expect(found.map(\.start.jsonString) == ["2024-03-09T12:00:00Z", "2024-03-10T11:00:00Z"])
    }

    @Test(arguments: [("09:00-18:00", 540, 1080), ("8:30-17:00", 510, 1020), ("00:00-24:00", 0, 1440)])
    func hoursSyntax(_ text: String, _ start: Int, _ end: Int) {
        #expect(WorkingHours(parsing: text) == WorkingHours(start: start, end: end))
    }

    @Test(arguments: ["18:00-09:00", "9-17", "09:60-10:00", "", "25:00-26:00"])
    func badHours(_ text: String) {
        #expect(WorkingHours(parsing: text) == nil)
    }
}
