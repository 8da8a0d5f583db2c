import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalICal
@testable import CoolcalState
@testable import CoolcalCalDAV
@testable import CoolcalWriting
@testable import CoolcalAnswering

/// Issue #45: one classification of faults (`Fault`): transient ones (a lock, a server
/// down, a full disk or failing device) park and exit 75; ones a person fixes (a calendar
/// not writable or missing, the state unusable or too new, a config) park and exit 0;
/// the message's own bad data is final.
@Suite struct FaultTests {
    static var cases: [(error: any Error, fault: Fault)] {
        [
            // Transient.
            (WriteError(kind: .busy, path: "cal.ics", message: "locked"), .transient),
            (WriteError(kind: .io, path: "cal.ics", message: "No space left on device"), .transient),
            (CalDAVError(.unreachable, url: "https://h/", "m"), .transient),
            (SQLiteError(code: 5, message: "database is locked", file: "state.db"), .transient),
            (SQLiteError(code: 13, message: "database or disk is full", file: "state.db"), .transient),
            (SQLiteError(code: 10, message: "disk I/O error", file: "state.db"), .transient),
            (StateError.errno(SystemCallError(call: "write", path: "s", errno: .noSpace), path: "s", doing: "w"), .transient),
            // Written, the answer not recorded: a rerun records it (process parks and exits 75).
            (UnrecordedAnswer(written: ["cal.ics"], cause: StateError(kind: .cannotCreate, path: "s", message: "m")), .transient),
            // A person fixes it: the calendar, the state, the config, the credentials.
            (WriteError(kind: .cannotCreate, path: "cal.ics", message: "is read-only"), .personFixes),
            (InputFileError(kind: .missing, path: "cal.ics", reason: "no such file"), .personFixes),
            (SQLiteError(code: 26, message: "file is not a database", file: "state.db"), .personFixes),
            (SQLiteError(code: 14, message: "unable to open database file", file: "state.db"), .personFixes),
            // A missing table, a broken constraint: damaged state, though 74 like a full disk.
            (SQLiteError(code: 1, message: "no such table: answers", file: "state.db"), .personFixes),
            (StateError(kind: .cannotCreate, path: "state.db", message: "written by a newer coolcal"), .personFixes),
            (ConfigError(message: "no 'me' set"), .personFixes),
            (CalDAVError(.denied, url: "https://h/", "m"), .personFixes),
            // Final: the message's own data, a usage error.
            (ICalError(file: "a.ics", message: "no END:VCALENDAR"), .final),
            (UsageError("no such option", command: nil), .final),
        ]
    }

    @Test func eachFaultIsClassifiedOnce() {
        for (error, fault) in Self.cases {
            #expect(Fault.of(error) == fault, "\(type(of: error)) \(error)")
        }
        // A foreign error ends a run as 74: transient, as a failing device.
        #expect(Fault.of(CocoaError(.fileWriteOutOfSpace)) == .transient)
        #expect(!Fault.final.parks && Fault.transient.parks && Fault.personFixes.parks)
    }
}
