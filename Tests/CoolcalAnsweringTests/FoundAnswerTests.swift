import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalState
@testable import CoolcalAnswering

/// SCHEDULE-AGENT=CLIENT on an invitation found in a calendar (issue 49): the server does
/// not schedule it, so the mail rules apply to its answer.
@Suite struct FoundAnswerTests {
    func entry(_ lines: [String]) -> InboxEntry {
        InboxEntry(id: "u", title: .event("T"), start: .instant(0), end: .instant(3600), allDay: false,
                   payload: (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:u"] + lines + ["END:VEVENT", "END:VCALENDAR", ""]).joined(separator: "\r\n"),
                   receivedAt: Date(), read: false, foundIn: "work")
    }

    @Test func clientSchedulingOnTheOrganizerOrMyAttendeeOnly() {
        let me = ["bob@example.com"]
        #expect(FoundAnswer.clientScheduled(entry(["ORGANIZER;SCHEDULE-AGENT=CLIENT:mailto:olga@example.com",
                                                   "ATTENDEE:mailto:bob@example.com"]), me: me))
        // Folded across the parameter: still found.
        #expect(FoundAnswer.clientScheduled(entry(["ORGANIZER:mailto:olga@example.com",
                                                   "ATTENDEE;PARTSTAT=NEEDS-ACTION;SCHEDULE-AG", " ENT=CLIENT:mailto:Bob@Example.com"]), me: me))
        #expect(!FoundAnswer.clientScheduled(entry(["ORGANIZER:mailto:olga@example.com",
                                                    "ATTENDEE;SCHEDULE-AGENT=CLIENT:mailto:carl@example.com",
                                                    "ATTENDEE:mailto:bob@example.com"]), me: me))
        #expect(!FoundAnswer.clientScheduled(entry(["ORGANIZER;SCHEDULE-AGENT=SERVER:mailto:olga@example.com",
                                                    "ATTENDEE:mailto:bob@example.com"]), me: me))
    }
}
