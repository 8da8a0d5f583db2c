import Foundation
import Testing
#if canImport(Glibc)
import Glibc
@testable import CLITests
#endif

/// Issue 7: the bad-input corpus.
///
/// Every row of `CorpusTests.cases` runs the built binary on one input from `Tests/Corpus/`
/// (or one generated here when it is too big to commit: 10 MB lines, 50,000 nested
/// components, 20 MB calendars, 10,000-level JSON) in a fresh directory, and checks:
///
/// - the exit status, and standard error (exact, or a stated prefix/substring) — `{file}`
///   stands for the input's name as given on the command line, `{dir}` for the directory
///   the command runs in;
/// - standard output: empty on an error, otherwise as the row says;
/// - no signal, and at most `CorpusRunner.cpuBound` seconds of CPU time (user + system of the
///   child, from `wait4`; a loaded machine stretches wall time, not this); a process still
///   running after `CorpusRunner.killAfter` seconds of wall time is killed as hung;
/// - no control characters on standard output or standard error, and every line of standard
///   error in coolcal's own form (`coolcal: error: ...`, `coolcal: warning: ...`, usage);
/// - nothing in the directory modified — the calendars (`work.ics`, the input), the state
///   (`state/`) and everything else, byte for byte — except what the row allows: `.state`
///   for `notify`, `.acceptedInto(CAL)` for an `accept` that succeeds, where `CAL` may only
///   gain the one `VEVENT` (and no control characters with it). Lock files beside a calendar
///   are documented to stay and are not compared.
///
/// Every row states the behaviour coolcal has and should have; comments that say "it was ..."
/// recall the bug a row was written for. A row for a bug not fixed yet gets a `bug:` argument:
/// it then runs inside `withKnownIssue`, passing while the bug is there and failing ("known
/// issue was not recorded") once it is fixed; then delete the argument. No row has one today,
/// and none may pass either way.
@Suite(.serialized) struct CorpusTests {
    @Test(arguments: CorpusTests.cases)
    func corpus(_ row: CorpusCase) throws {
        if let bug = row.bug {
            withKnownIssue(Comment(rawValue: bug)) {
                try CorpusRunner.check(row)
            }
        } else {
            try CorpusRunner.check(row)
        }
    }

    @Test func corpusHasEnoughFiles() throws {
        let dir = Binary.root.appendingPathComponent("Tests/Corpus")
        let files = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String }
            .filter { !FileManager.default.isDirectory(dir.appendingPathComponent($0).path) }
            .filter { $0 != ".gitattributes" } ?? []
        #expect(files.count >= 70)
        // Every committed file is in the table at least once.
        let used = Set(Self.cases.compactMap(\.input.corpusPath) + Self.cases.compactMap(\.setup.corpusPath))
        #expect(Set(files).subtracting(used).sorted() == [])
    }

    // MARK: - The table

    static let cases: [CorpusCase] = invitations + itip + calendars + generated + arguments + state

}
