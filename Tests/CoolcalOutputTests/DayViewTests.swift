import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalCalendars
@testable import CoolcalInvite
@testable import CoolcalSchedule
@testable import CoolcalOutput
@testable import CoolcalTestSupport

/// The day view's exact text (expected output written by hand, cell by cell): lanes
/// beside the invitation, hour ticks and dates in the zone, labels wrapped to the
/// width, offsets across a fall-back night, ASCII and colour.
@Suite struct DayViewTests {
    func occurrence(_ title: String, _ start: String, _ end: String, calendar: String, color: String? = nil,
                    transparent: Bool = false, declined: Bool = false) throws -> Occurrence {
        Occurrence(uid: title, recurrenceID: nil, summary: title, calendar: calendar, calendarColor: color,
                   start: .instant(try utc(start)), end: .instant(try utc(end)), startInstant: try utc(start),
                   endInstant: try utc(end), allDay: false, transparent: transparent, status: nil,
                   declinedByOwner: declined, inviteID: nil)
    }

    func style(_ locale: String, _ zone: String, unicode: Bool = true, color: Bool = false) throws -> TextStyle {
        let tz = try #require(TimeZone(identifier: zone))
        return TextStyle(locale: Locale(identifier: locale), zone: tz, color: color, unicode: unicode, terminal: false)
    }

    func window(_ start: String, _ end: String) throws -> TimeWindow {
        TimeWindow(start: try utc(start), end: try utc(end))
    }

    /// Berlin in June: an invitation 14:00–16:00 with a 1 h buffer, and four events
    /// around it, two overlapping it and each other, one ignored (built from a report,
    /// as `conflicts` does, so busy and ignored are merged by start).
    func overlapping() throws -> DayViewInput {
        let invite = Invite(id: .number(12), title: "Family Reunion", start: .instant(try utc("2026-06-10T12:00:00Z")),
                            end: .instant(try utc("2026-06-10T14:00:00Z")), source: "invite.json")
        let report = ConflictReport(
            invite: invite, span: try window("2026-06-10T12:00:00Z", "2026-06-10T14:00:00Z"),
            window: try window("2026-06-10T11:00:00Z", "2026-06-10T15:00:00Z"), buffer: Buffer(days: 0, seconds: 3600),
            conflicts: [
                Conflict(occurrence: try occurrence("Lunch with Sam", "2026-06-10T10:30:00Z", "2026-06-10T11:30:00Z", calendar: "family.ics"), relation: .before),
                Conflict(occurrence: try occurrence("Design review", "2026-06-10T12:30:00Z", "2026-06-10T13:30:00Z", calendar: "work.ics"), relation: .overlaps),
                Conflict(occurrence: try occurrence("Car service", "2026-06-10T13:45:00Z", "2026-06-10T14:30:00Z", calendar: "vdir"), relation: .after),
            ],
            ignored: [
                IgnoredOccurrence(occurrence: try occurrence("Focus time", "2026-06-10T12:00:00Z", "2026-06-10T14:00:00Z", calendar: "work.ics", transparent: true), reason: .transparent),
            ])
        return DayViewInput(report: report, zone: try #require(TimeZone(identifier: "Europe/Berlin")))
    }

    @Test func overlappingEventsAt40_80_132() throws {
        let input = try overlapping()
        let s = try style("en_GB", "Europe/Berlin")
        #expect(DayView.render(input, width: 40, style: s) == Self.overlap40)
        #expect(DayView.render(input, width: 80, style: s) == Self.overlap80)
        #expect(DayView.render(input, width: 132, style: s) == Self.overlap132)
    }

    /// New York in April: an all-day event above the rows, a long invitation title
    /// wrapped into its four rows at 40 columns and on one line when there is room.
    func allDay() throws -> DayViewInput {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        var holiday = try occurrence("Spring break at the lake house with the cousins", "2026-04-13T04:00:00Z",
                                     "2026-04-18T04:00:00Z", calendar: "family.ics")
        holiday.allDay = true
        holiday.start = .date(CivilDateTime(year: 2026, month: 4, day: 13))
        holiday.end = .date(CivilDateTime(year: 2026, month: 4, day: 18))
        return DayViewInput(
            title: "Dentist appointment downtown", span: try window("2026-04-14T14:00:00Z", "2026-04-14T15:00:00Z"),
            window: try window("2026-04-14T13:00:00Z", "2026-04-14T16:00:00Z"), zone: zone,
            items: [
                .init(occurrence: holiday, relation: .overlaps, ignored: nil),
                .init(occurrence: try occurrence("Standup", "2026-04-14T13:30:00Z", "2026-04-14T13:45:00Z", calendar: "work.ics"),
                      relation: .before, ignored: nil),
            ])
    }

    @Test func allDayEventAt40_80_132() throws {
        let input = try allDay()
        let s = try style("en_US", "America/New_York")
        #expect(DayView.render(input, width: 40, style: s) == Self.allday40)
        #expect(DayView.render(input, width: 80, style: s) == Self.allday80)
        #expect(DayView.render(input, width: 132, style: s) == Self.allday132)
    }

    /// Tokyo, 22:30 to 01:00: the date again on the new day; a declined event reaching
    /// past the window's end is cut at it.
    func acrossMidnight() throws -> DayViewInput {
        DayViewInput(
            title: "Night shift handover", span: try window("2026-05-05T14:00:00Z", "2026-05-05T15:30:00Z"),
            window: try window("2026-05-05T13:30:00Z", "2026-05-05T16:00:00Z"), zone: try #require(TimeZone(identifier: "Asia/Tokyo")),
            items: [
                .init(occurrence: try occurrence("Server patch", "2026-05-05T14:45:00Z", "2026-05-05T15:15:00Z", calendar: "ops.ics", color: "#FF0000"),
                      relation: .overlaps, ignored: nil),
                .init(occurrence: try occurrence("Sleep", "2026-05-05T15:00:00Z", "2026-05-05T22:00:00Z", calendar: "home.ics", declined: true),
                      relation: nil, ignored: .declined),
            ])
    }

    @Test func windowAcrossMidnightAt40_80_132() throws {
        let input = try acrossMidnight()
        let s = try style("en_GB", "Asia/Tokyo")
        #expect(DayView.render(input, width: 40, style: s) == Self.midnight40)
        #expect(DayView.render(input, width: 80, style: s) == Self.midnight80)
        #expect(DayView.render(input, width: 132, style: s) == Self.midnight132)
    }

    /// New York's fall-back night (2026-11-01, 02:00 EDT → 01:00 EST): the invitation
    /// runs from the first 1:30 to the second; both 1:00 ticks carry their offsets, and
    /// the two events at 1:30 sit in different rows.
    func fallBack() throws -> DayViewInput {
        DayViewInput(
            title: "Night train", span: try window("2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z"),
            window: try window("2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z"), zone: try #require(TimeZone(identifier: "America/New_York")),
            items: [
                .init(occurrence: try occurrence("Boarding", "2026-11-01T05:30:00Z", "2026-11-01T05:45:00Z", calendar: "rail.ics"),
                      relation: .overlaps, ignored: nil),
                .init(occurrence: try occurrence("Arrival call", "2026-11-01T06:30:00Z", "2026-11-01T06:45:00Z", calendar: "rail.ics"),
                      relation: .after, ignored: nil),
            ])
    }

    @Test func fallBackNightAt40_80_132() throws {
        let input = try fallBack()
        let s = try style("en_US", "America/New_York")
        #expect(DayView.render(input, width: 40, style: s) == Self.fallback40)
        #expect(DayView.render(input, width: 80, style: s) == Self.fallback80)
        #expect(DayView.render(input, width: 132, style: s) == Self.fallback132)
    }

    @Test func asciiFallback() throws {
        let s = try style("en_US", "America/New_York", unicode: false)
        let text = DayView.render(try fallBack(), width: 40, style: s)
        #expect(text == Self.fallbackASCII)
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
    }

    /// Colour on: the invitation bold, a busy bar in its calendar's colour, an ignored
    /// one dim; padding is never painted. Colour off (what NO_COLOR gives): no escapes.
    @Test func colourAndNoColour() throws {
        let coloured = DayView.render(try acrossMidnight(), width: 40, style: try style("en_GB", "Asia/Tokyo", color: true))
        let lines = coloured.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "  \u{1B}[1mTue 5 May\u{1B}[0m")
        #expect(lines.contains("  00:00 \u{1B}[1m█\u{1B}[0m          \u{1B}[38;2;255;0;0m▌\u{1B}[0mpatch     \u{1B}[2m┊\u{1B}[0m\u{1B}[2mSleep\u{1B}[0m"))
        let plain = DayView.render(try acrossMidnight(), width: 40, style: try style("en_GB", "Asia/Tokyo", color: false))
        #expect(!plain.contains("\u{1B}"))
        #expect(plain == Self.midnight40)
    }

    /// Wide characters take two columns: the lanes stay aligned, and a word too long
    /// for its lane is cut at a column it fills.
    @Test func wideCharactersKeepTheLanesAligned() throws {
        var input = try fallBack()
        input.title = "夜行列車 Night"
        input.items[0].occurrence.summary = "🎂 Cake"
        input.items[1].occurrence.summary = "会議会議会議会議"
        let lines = DayView.render(input, width: 40, style: try style("en_US", "America/New_York"))
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("              █夜行列車    ▌🎂 Cake"))
        #expect(lines.contains("              █Night"))
        #expect(lines.contains("                           ▌会議会議会…"))
    }

    /// An all-day event is listed under the date of the day it begins.
    @Test func allDayUnderItsOwnDate() throws {
        var input = try acrossMidnight()
        var holiday = try occurrence("Children's Day", "2026-05-05T15:00:00Z", "2026-05-06T15:00:00Z", calendar: "home.ics")
        holiday.allDay = true
        input.items.append(.init(occurrence: holiday, relation: .overlaps, ignored: nil))
        let text = DayView.render(input, width: 40, style: try style("en_GB", "Asia/Tokyo"))
        #expect(text.hasPrefix("  Tue 5 May\n    22:30\n"))
        #expect(text.contains("\n  Wed 6 May\n  all day ▌Children's Day [home.ics]\n    00:00 █"))
    }

    /// Ten all-day events: eight are listed, two counted.
    @Test func allDayListIsBounded() throws {
        var input = try acrossMidnight()
        var holiday = try occurrence("Holiday", "2026-05-05T15:00:00Z", "2026-05-06T15:00:00Z", calendar: "home.ics")
        holiday.allDay = true
        input.items += Array(repeating: .init(occurrence: holiday, relation: .overlaps, ignored: nil), count: 10)
        let text = DayView.render(input, width: 40, style: try style("en_GB", "Asia/Tokyo"))
        #expect(text.components(separatedBy: "▌Holiday [home.ics]\n").count - 1 == 8)
        #expect(text.hasSuffix("\n          +2 more\n"))
    }

    /// Five thousand events at once: lanes stop at what the widest view can draw, so
    /// each event looks at no more than that many; all but the drawn ones are counted.
    @Test func manyOverlappingEventsAreBounded() throws {
        var input = try fallBack()
        let one = try occurrence("E", "2026-11-01T05:30:00Z", "2026-11-01T05:45:00Z", calendar: "c")
        input.items = Array(repeating: .init(occurrence: one, relation: .overlaps, ignored: nil), count: 5000)
        let grid = DayGrid(input, marks: ZoneMarks(zone: input.zone))
        #expect(grid.lanes == DayGrid.maxLanes)
        #expect(grid.bars.count == 5001)
        let text = DayView.render(input, width: 40, style: try style("en_US", "America/New_York", unicode: false))
        // 26 columns: the invitation and four events drawn.
        #expect(text.hasSuffix("              +4996 more\n"))
    }

    /// Too narrow for every lane: the lanes that fit are drawn and the rest counted.
    @Test func lanesThatDoNotFitAreCounted() throws {
        var input = try fallBack()
        input.items = try (0..<6).map { n in
            .init(occurrence: try occurrence("E\(n)", "2026-11-01T05:30:00Z", "2026-11-01T05:45:00Z", calendar: "c"),
                  relation: .overlaps, ignored: nil)
        }
        let text = DayView.render(input, width: 40, style: try style("en_US", "America/New_York", unicode: false))
        // 40 − 2 − 11 − 1 = 26 columns: five lanes of four (and a space); the invitation and E0–E3 are drawn.
        #expect(text.contains("              #Ni~ |E0  |E1  |E2  |E3\n"))
        #expect(text.hasSuffix("              +2 more\n"))
    }
}
