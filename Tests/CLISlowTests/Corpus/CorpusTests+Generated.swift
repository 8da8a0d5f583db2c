import Foundation
import Testing
@testable import CLITests

extension CorpusTests {
    // Inputs generated at test time (too big to commit).
    static let generated: [CorpusCase] = [
        .init(.generated("json-deep-10000.json", Generate.deepJSONArrays), .conflicts, 65,
              stderr: .error("not valid JSON: too many nested arrays or dictionaries at line 1, column 609")),
        .init(.generated("json-deep-10000.json", Generate.deepJSONArrays), .accept, 65,
              stderr: .error("not valid JSON: too many nested arrays or dictionaries at line 1, column 609")),
        .init(.generated("json-deep-10000.json", Generate.deepJSONArrays), .notify, 65,
              stderr: .error("not a push payload (notify filters JSON objects)")),
        .init(.generated("json-deep-10000-objects.json", Generate.deepJSONObjects), .conflicts, 65,
              stderr: .error("not valid JSON: too many nested arrays or dictionaries at line 1, column 2562")),
        .init(.generated("json-2mib.json", Generate.bigJSON), .conflicts, 65,
              stderr: .error("too large (2097252 bytes; at most 1048576)")),
        .init(.generated("json-2mib.json", Generate.bigJSON), .accept, 65,
              stderr: .error("too large (2097252 bytes; at most 1048576)")),
        // notify gives a 2 MiB JSON object's real reason, its size (not "not a push payload").
        .init(.generated("json-2mib.json", Generate.bigJSON), .notify, 65,
              stderr: .all([.prefix("coolcal: error: {file}: "), .contains("too large")])),
        .init(.generated("json-title-900k.json", Generate.bigTitle), .conflicts, 0),
        // Nesting deeper than 100 components is refused before libical sees it.
        .init(.generated("itip-nested-30000.ics", Generate.nestedITIP), .conflicts, 65,
              stderr: .error("line 102: components are nested more than 100 deep")),
        // Lines over 1 MiB are refused before libical (whose time grows quadratically with them).
        .init(.generated("cal-line-10mb.ics", Generate.longLine), .events, 65,
              stderr: .error("line 9 is longer than 1 MiB (iCalendar folds long values into short lines)")),
        .init(.generated("cal-line-10mb.ics", Generate.longLine), .acceptInto, 65,
              stderr: .prefix("coolcal: error: "), writes: .nothing),
        .init(.generated("cal-line-10mb-unterminated.ics", Generate.unterminatedLine), .events, 65,
              stderr: .prefix("coolcal: error: {file}: line ")),
        .init(.generated("cal-nested-50000.ics", Generate.nestedEvents), .events, 65,
              stderr: .error("line 103: components are nested more than 100 deep")),
        .init(.generated("cal-nested-50000.ics", Generate.nestedEvents), .conflictsWith, 65,
              stderr: .error("line 103: components are nested more than 100 deep")),
        .init(.generated("cal-nested-50000.ics", Generate.nestedEvents), .acceptInto, 65,
              stderr: .exact("coolcal: error: {dir}/{file}: line 103: components are nested more than 100 deep\n"),
              writes: .nothing),
        .init(.generated("cal-nested-50000-x.ics", Generate.nestedXComponents), .events, 65,
              stderr: .error("line 103: components are nested more than 100 deep")),
        .init(.generated("cal-nested-50000-unclosed.ics", Generate.nestedUnclosed), .events, 65,
              stderr: .error("line 103: components are nested more than 100 deep")),
        .init(.generated("cal-nested-50000-unclosed.ics", Generate.nestedUnclosed), .acceptInto, 65,
              stderr: .exact("coolcal: error: {dir}/{file}: line 103: components are nested more than 100 deep\n")),
        // 100 deep is still read (the limit is on more).
        .init(.generated("cal-nested-100.ics", Generate.nested100), .events, 0, stdout: .contains("Fine event")),
        // accept no longer reads the calendar whole with libical, so files over 64 MiB are
        // written into like any other (the 1M-event rows of `make bench` do it, in the release
        // build; a debug build takes longer than this table's CPU bound for that).
        .init(.generated("cal-20mb.ics", Generate.twentyMB), .conflictsWith, 1, stdout: .contains("Busy: 1 conflict")),
        .init(.generated("cal-20mb.ics", Generate.twentyMB), .events, 0, stdout: .contains("In the window")),
        // accept into a 20 MB (~100,000-event) calendar: two passes of the pre-filter (the read and
        // the read-back of the result), no whole-file libical parse; `CorpusRunner.cpuBound` bounds it.
        .init(.generated("cal-20mb.ics", Generate.twentyMB), .acceptInto, 0,
              stdout: .exact("accepted: Family Reunion (id 12): added to {file}\n"), writes: .acceptedInto("{file}")),
        .init(.generated("cal-vtimezone-5000.ics", Generate.hugeVTimezone), .events, 0,
              stdout: .all([.contains("Aug 20, 2022, 11:00"), .contains("Huge zone")])),
        // Five COUNT=2000000000 events stop at the step cap, with a warning (~3.7 s of CPU in the
        // debug build; it was ~23 s with a 2,000,000-step cap per event), each busy and incomplete.
        .init(.generated("cal-rrule-bombs-x5.ics", Generate.fiveBombs), .events, 0,
              stderr: .prefix("coolcal: warning: {file}: "), stdout: .contains("Bomb 4  [{file}]  (incomplete: expansion stopped at the")),
        // Five FREQ=SECONDLY events in the window: bounded by the per-query limits.
        .init(.generated("cal-rrule-secondly-x5.ics", Generate.fiveSecondly), .events, 0,
              stderr: .prefix("coolcal: warning: {file}: ")),
    ]
}
