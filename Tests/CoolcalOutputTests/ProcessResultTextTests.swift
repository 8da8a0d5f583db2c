import Testing
@testable import CoolcalModel
@testable import CoolcalAnswering
@testable import CoolcalOutput

/// `process`'s outcome is a value from Answering (`ProcessResult`) that Output words
/// (issue #47 item 1): the words for the results that are no item of the run, written by
/// hand as ProcessTests pins them end to end.
@Suite struct ProcessResultTextTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "work.ics: locked by another coolcal" }
    }

    @Test func resultsThatAreNoItemOfTheRun() {
        #expect(ProcessOutcome(.tooLarge(limit: 1000)).line == "no_action (too large to read (over 1000 bytes))")
        #expect(ProcessOutcome(.bounded("more than 50 parts")).line == "no_action (more than 50 parts)")
        #expect(ProcessOutcome(.skipped(nil, seen: false)).line == "no_action (no invitation)")
        #expect(ProcessOutcome(.skipped(.past, seen: false)).line == "no_action (past)")
        #expect(ProcessOutcome(.skipped(.past, seen: true)).line == "no_action (already processed)")
    }

    @Test func aRunThatFailedSaysWhetherTheMessageWaits() {
        #expect(ProcessOutcome(.failed(Broken(), .transient, parked: true)).line
                == "error (work.ics: locked by another coolcal; parked: the next run answers it)")
        #expect(ProcessOutcome(.failed(Broken(), .transient, parked: false)).line == "error (work.ics: locked by another coolcal)")
    }

    @Test func theJSONCarriesParkedAndNoInvitation() {
        #expect(ProcessOutcome.json(.failed(Broken(), .transient, parked: true)) == """
            {
              "outcome": "error",
              "detail": "work.ics: locked by another coolcal; parked: the next run answers it",
              "invite_id": null,
              "title": null,
              "parked": true
            }

            """)
        #expect(ProcessOutcome.json(.skipped(nil, seen: false)) == """
            {
              "outcome": "no_action",
              "detail": "no invitation",
              "invite_id": null,
              "title": null,
              "parked": false
            }

            """)
    }
}
