import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalZones
@testable import CoolcalScan
@testable import CoolcalDesktop
@testable import CoolcalMail
@testable import CoolcalICal
@testable import CoolcalInvite
@testable import CoolcalState
@testable import CoolcalCalDAV
@testable import CoolcalWriting
@testable import CoolcalRSVP
@testable import CoolcalAnswering
@testable import CoolcalSpool
@testable import CoolcalCLI
@testable import HouseRulesTests

/// Issue #26: each error type states its exit status (`StatusError`), `ExitStatus.of`
/// asks it, and an error that is not coolcal's is 74.
@Suite struct ExitStatusTests {
    /// One value of every error type under `Sources/`, and of each of its kinds, with
    /// the status it gives. The numbers are written out: what `ExitStatus.of` gave each
    /// when it was one switch with a `default: 74` (so every type it did not name is 74).
    static var cases: [(error: any StatusError, status: Int32)] {
        let errno = Errno(rawValue: 5)
        let failed = SystemCallError(call: "open", path: "/x", errno: errno)
        return [
            // CLI
            (UsageError("no such option", command: nil), 64),
            (ConfigError(message: "bad line"), 78),
            (ServerError(message: "unreachable", denied: false), 75),
            (ServerError(message: "refused", denied: true), 77),
            (MailSendError(message: "sendmail: exit 1"), 74),
            (NoSuchEntry(message: "no failed entry in the outbox has the key or invitation id 'x'"), 66),
            // Mail, RSVP
            (Sendmail.Missing(command: "nosuch -t", reason: "no such file"), 74),
            (MessageError(message: "not an e-mail message"), 74),
            (MailReply.Failure.usage("missing --me"), 74),
            (MailReply.Failure.data(InviteError(file: "a.eml", message: "no ORGANIZER")), 74),
            // ICal, Invite
            (ICalError(file: "a.ics", message: "no END:VCALENDAR"), 65),
            (InviteError(file: "a.json", message: "no start"), 65),
            (InviteDate.Failure.noOffset, 74),
            (InviteDate.Failure.unparseable, 74),
            // Support, Desktop
            (InputFileError(kind: .missing, path: "a", reason: "no such file"), 66),
            (InputFileError(kind: .unreadable, path: "a", reason: "permission denied"), 66),
            (InputTooLarge(path: "a", size: nil, limit: 1), 74),
            (FileLock.Failure.wouldBlock, 74),
            (FileLock.Failure.cannotOpen(failed), 74),
            (FileLock.Failure.cannotLock(failed), 74),
            (errno, 74),
            (failed, 74),
            (DesktopUnavailable(reason: "no session bus"), 74),
            // CalDAV
            (CalDAVError(.unreachable, url: "https://h/", "m"), 75),
            (CalDAVError(.preconditionFailed, url: "https://h/", "m"), 75),
            (CalDAVError(.denied, url: "https://h/", "m"), 77),
            (CalDAVError(.notCalendar, url: "https://h/", "m"), 65),
            (CalDAVError(.badResponse, url: "https://h/", "m"), 65),
            (CalDAVError(.invalidURL, url: "h", "m"), 64),
            // Writing
            (AtomicFile.Changed(), 74),
            (WriteError(kind: .cannotCreate, path: "a", message: "m"), 73),
            (WriteError(kind: .io, path: "a", message: "m"), 74),
            (WriteError(kind: .busy, path: "a", message: "m"), 75),
            // State: SQLite's primary codes CANTOPEN 14, BUSY 5, LOCKED 6, IOERR 10, CONSTRAINT 19.
            (SQLiteError(code: 14, message: "m", file: "state.db"), 73),
            (SQLiteError(code: 5, message: "m", file: "state.db"), 75),
            (SQLiteError(code: 6, message: "m", file: "state.db"), 75),
            (SQLiteError(code: 10, message: "m", file: "state.db"), 74),
            (SQLiteError(code: 19, message: "m", file: "state.db"), 74),
            (StateError(kind: .cannotCreate, path: "a", message: "m"), 73),
            (StateError(kind: .io, path: "a", message: "m"), 74),
            // Spool, Answering
            (ParkingPlaces.NotParked(reasons: ["m"]), 75),
            (UnrecordedAnswer(written: ["cal.ics"], cause: StateError(kind: .cannotCreate, path: "s", message: "m")), 2),
        ]
    }

    /// Error types the test cannot name, each with why it states no status yet.
    static let exempt: [String: String] = [
        "CoolcalAnswering.Acceptance.Busy": "private to Acceptance.swift, where it is caught (it states 1, busy)",
    ]

    @Test func eachErrorStatesItsStatus() {
        for (error, status) in Self.cases {
            #expect(error.exitStatus.rawValue == status, "\(type(of: error)) \(error)")
            #expect(CoolcalModel.ExitStatus.of(error).rawValue == status, "\(type(of: error)) \(error)")
        }
        // The SQLite codes above are the kinds they stand for.
        let kinds = [14, 5, 6, 10, 19].map { SQLiteError(code: Int32($0), message: "m", file: "f").kind }
        #expect(kinds == [.cannotOpen, .busy, .busy, .io, .other])
    }

    /// Not coolcal's, so no status of their own: 74, as before.
    @Test func foreignErrorsAreIOErrors() {
        struct Unknown: Error {}
        let context = DecodingError.Context(codingPath: [], debugDescription: "m")
        let foreign: [any Error] = [CocoaError(.fileReadNoSuchFile), POSIXError(.ENOENT),
                                    DecodingError.dataCorrupted(context), Unknown()]
        for error in foreign {
            #expect(CoolcalModel.ExitStatus.of(error).rawValue == 74, "\(error)")
        }
    }

    /// Every error type declared under `Sources/` is in `cases` (so it states a status,
    /// or the list would not compile) or exempt: a new one fails here until it is added.
    @Test func everyDeclaredErrorTypeIsListed() throws {
        let declared = try Self.declaredErrorTypes()
        let listed = Set(Self.cases.map { String(reflecting: type(of: $0.error)) })
        #expect(declared.count >= 20, "the scan finds too few error types: \(declared.sorted())")
        let missing = declared.subtracting(listed).subtracting(Self.exempt.keys)
        #expect(missing.isEmpty, "error types without a case here (and so maybe a status): \(missing.sorted())")
        let unknown = listed.union(Self.exempt.keys).subtracting(declared)
        #expect(unknown.isEmpty, "listed but not found by the scan: \(unknown.sorted())")
    }

    /// A status is decided for each kind: no `exitStatus` has a catch-all.
    @Test func noCatchAllStatus() throws {
        var bodies = 0
        for file in try LayeringTests.files() {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() where line.contains("var exitStatus: ExitStatus {") && !line.hasSuffix("}") {
                bodies += 1
                let indent = line.prefix { $0 == " " }
                let body = lines[(i + 1)...].prefix { !$0.hasPrefix(indent + "}") }
                #expect(!body.contains { $0.contains("default") }, "\(file.path):\(i + 1): a default in exitStatus")
            }
        }
        #expect(bodies >= 5, "the scan finds no switch")
    }

    /// `Module.Outer.Name` of every struct, enum, class or actor under `Sources/` named
    /// `…Error` or conforming to `Error` (or `LocalizedError`, `CustomNSError`,
    /// `StatusError`), in its declaration or an extension. Nesting is read from the
    /// indentation, as the sources are formatted.
    static func declaredErrorTypes() throws -> Set<String> {
        let declaration = /^(\s*)(?:(?:public|package|internal|private|fileprivate|final|indirect|open)\s+)*(struct|enum|class|actor|extension|protocol)\s+([A-Za-z_][\w.]*)/
        let conformance = /\b(?:Error|LocalizedError|CustomNSError|StatusError)\b/
        var found: Set<String> = []
        for file in try LayeringTests.files() {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var outer: [(indent: Int, name: String)] = []
            for (i, line) in lines.enumerated() {
                guard let match = line.firstMatch(of: declaration) else { continue }
                let indent = match.1.count, kind = match.2, name = String(match.3)
                outer.removeAll { $0.indent >= indent }
                let qualified = (outer.map(\.name) + [name]).joined(separator: ".")
                outer.append((indent, name))
                // The header, to its `{` (it may wrap), without a `where` clause.
                var header = String(line[match.range.upperBound...])
                var next = i + 1
                while !header.contains("{"), next < lines.count {
                    header += " " + lines[next]
                    next += 1
                }
                header = String(header.prefix { $0 != "{" })
                if let whereClause = header.range(of: " where ") { header = String(header[..<whereClause.lowerBound]) }
                let conforms = header.firstMatch(of: conformance) != nil
                guard kind != "protocol", conforms || (kind != "extension" && name.hasSuffix("Error")) else { continue }
                found.insert(file.target + "." + qualified)
            }
        }
        return found
    }
}
