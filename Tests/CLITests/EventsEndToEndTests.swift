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
        #expect(summaries.contains("On-call handover (moved)"))
        #expect(!summaries.contains("On-call handover"), "the override replaced the master's instance")
        let keys = Set(events.flatMap { $0.keys })
        #expect(keys == ["uid", "recurrence_id", "summary", "calendar", "start", "end", "all_day", "busy", "transparent", "status", "incomplete",
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
        #expect(run.stdout == "No events.\n")
    }
}
