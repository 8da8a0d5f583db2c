import Foundation
import Testing

/// Issue #46 item 5: a spool that does not exist is not created; merge exits 0 (with -q
/// too) and says what to create once a day per path.
@Suite struct MissingSpoolTests {
    @Test func aMissingSpoolIsSaidOnceADayAndNotCreated() throws {
        let dir = try Spawn.directory()
        let spool = dir + "/Maildir/.invitations"
        let cal = try Binary.temp("work.ics", try Data(contentsOf: URL(fileURLWithPath: Binary.sample("work.ics"))))
        let args = ["merge", "-q", "--me", "me@example.com", "--state", dir + "/state", "--spool", spool, cal]
        let first = try Binary.run(args)
        #expect(first.status == 0)
        #expect(first.stdout == "")
        #expect(first.stderr == "coolcal: warning: \(spool) does not exist: create it (mkdir -p \(spool)/cur \(spool)/new "
                + "\(spool)/tmp) or point spool at your filter's folder\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/Maildir"), "nothing created")
        let second = try Binary.run(args)
        #expect(second.status == 0)
        #expect(second.stderr == "", "once a day")
        // Another path is said at once; a day later the first is said again.
        let other = try Binary.run(["merge", "--me", "me@example.com", "--state", dir + "/state", "--spool", dir + "/typo", cal])
        #expect(other.status == 0)
        #expect(other.stderr.hasPrefix("coolcal: warning: \(dir)/typo does not exist: create it"))
        let stamps = try FileManager.default.contentsOfDirectory(atPath: dir + "/state").filter { $0.hasSuffix(".missing") }
        #expect(stamps.count == 2)
        for stamp in stamps {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-86_401)],
                                                  ofItemAtPath: dir + "/state/" + stamp)
        }
        #expect(try Binary.run(args).stderr == first.stderr)
    }
}
