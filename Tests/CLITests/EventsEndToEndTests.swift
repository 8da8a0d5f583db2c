import Foundation
import Testing

@Suite struct EventsEndToEndTests {
    @Test func agendaOfTheReunionDay() throws {
        let run = try Binary.run(["events", "--json", "--from", "2022-08-20T00:00:00Z", "--to", "2022-08-21T00:00:00Z",
                                  Binary.sample("work.ics"), Binary.sample("family.ics"), Binary.sample("vdir")])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let doc = try Binary.json(run.stdout)
        #expect(doc["window"] as? [String: String] == ["start": "2022-08-20T00:00:00Z", "end": "2022-08-21T00:00:00Z"])
        let events = try #require(doc["events"] as? [[String: Any]])
        let starts = events.compactMap { $0["start"] as? String }
        #expect(starts.first == "2022-08-20", "all-day at local midnight sorts first")
        let summaries = events.compactMap { $0["summary"] as? String }
        // `title`, as the invitation says it; `summary` stays (deprecated), the same.
        #expect(events.compactMap { $0["title"] as? String } == summaries)
        // Added last, as the man page's JSON rule says of new fields.
        #expect(run.stdout.contains("      \"calendar_name\": \"work.ics\",\n      \"title\": \"Team offsite planning\"\n    }"))
        #expect(summaries.contains("On-call handover (moved)"))
        #expect(!summaries.contains("On-call handover"), "the override replaced the master's instance")
        let keys = Set(events.flatMap { $0.keys })
        #expect(keys == ["uid", "recurrence_id", "title", "summary", "calendar", "start", "end", "all_day", "busy", "transparent", "status", "incomplete",
                        "tentative", "calendar_name"])
        let cancelled = try #require(events.first { $0["summary"] as? String == "Cancelled sync" })
        #expect(cancelled["busy"] as? Bool == false)
        #expect(cancelled["status"] as? String == "CANCELLED")
    }

    @Test func datesAreReadInTheZone() throws {
        let run = try Binary.run(["events", "--json", "--tz", "America/Los_Angeles", "--from", "2022-08-20",
                                  Binary.sample("family.ics")])
        let doc = try Binary.json(run.stdout)
        #expect(doc["window"] as? [String: String] == ["start": "2022-08-20T07:00:00Z", "end": "2022-08-21T07:00:00Z"])
    }

    @Test func textAgenda() throws {
        let run = try Binary.run(["events", "--from", "2022-08-23", Binary.sample("work.ics")])
        #expect(run.status == 0)
        #expect(run.stdout == "No events from Tue, Aug 23 to Wed, Aug 24 (UTC).\n")
        let berlin = try Binary.run(["events", "--tz", "Europe/Berlin", "--from", "2026-12-08", Binary.sample("work.ics")],
                                    env: ["LANG": "en_GB.UTF-8"])
        #expect(berlin.stdout == "No events from Tue 8 Dec to Wed 9 Dec (Europe/Berlin).\n")
        let morning = try Binary.run(["events", "--tz", "Europe/Berlin", "--from", "2026-12-08T09:30", "--to", "+2d", Binary.sample("work.ics")])
        #expect(morning.stdout == "No events from Tue, Dec 8, 9:30\u{202F}AM to Thu, Dec 10, 9:30\u{202F}AM (Europe/Berlin).\n")
    }

    /// Issue #46: a heading for each day, the lines as `conflicts` prints them.
    @Test func dayHeadings() throws {
        let run = try Binary.run(["events", "--from", "2022-08-19", "--to", "+2d", Binary.sample("family.ics"), Binary.sample("vdir")])
        #expect(run.status == 0)
        #expect(run.stdout == """
            Fri, Aug 19
              • Aug 19, 2022 at 4:00\u{202F}PM  Call the plumber  [family.ics]
            Sat, Aug 20
              · Aug 20, 2022 (all day)  Grandma's birthday  [family.ics]  (transparent)
              • Aug 20, 2022, 1:30\u{2009}–\u{2009}2:30\u{202F}PM  Breakfast with Sam  [family.ics]
              • Aug 20, 2022, 7:00\u{2009}–\u{2009}7:45\u{202F}PM  Book club  [vdir]
              • Aug 20, 2022, 9:00\u{2009}–\u{2009}10:30\u{202F}PM  Car service  [vdir]

            """)
    }

    /// `today`, `tomorrow` and `+Nd`: `--from` from today, `--to` from `--from`.
    @Test func windowWords() throws {
        func window(_ args: [String]) throws -> [String: String]? {
            let run = try Binary.run(["events", "--json", "--tz", "Europe/Berlin"] + args + [Binary.sample("family.ics")])
            #expect(run.status == 0, "\(run.stderr)")
            return try Binary.json(run.stdout)["window"] as? [String: String]
        }
        let days = DateFormatter()
        days.locale = Locale(identifier: "en_US_POSIX")
        days.timeZone = TimeZone(identifier: "Europe/Berlin")
        days.dateFormat = "yyyy-MM-dd"
        let today = days.string(from: Date())
        let fromToday = try window(["--from", "today"])
        let fromTomorrow = try window(["--from", "tomorrow", "--to", "+2d"])
        let plusOne = try window(["--from", "+1d"])
        #expect(fromToday == (try window([])), "today is the default")
        #expect(fromTomorrow?["start"] == plusOne?["start"])
        #expect(fromToday?["end"] == fromTomorrow?["start"])
        #expect(try window(["--from", "\(today)", "--to", "tomorrow"])?["end"] == fromTomorrow?["start"])
        // A local date-time in --tz, and +Nd from it (Berlin is UTC+1 in December).
        #expect(try window(["--from", "2026-12-08T09:30", "--to", "+2d"])
                == ["start": "2026-12-08T08:30:00Z", "end": "2026-12-10T08:30:00Z"])
        let bad = try Binary.run(["events", "--from", "yesterday", Binary.sample("family.ics")])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("coolcal: error: --from 'yesterday' is not today, tomorrow, +Nd, a date (2022-08-20), "
                                     + "a local date-time (2022-08-20T09:00) or one with an offset (2022-08-20T08:00:00Z)\n"))
    }
}
