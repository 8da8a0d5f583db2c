import Foundation
import Testing

/// Issue #30, end to end: a `merge` over a Maildir where nothing arrived since a run that
/// settled it all answers with the empty run's document before it takes the run lock (so
/// before the state is opened: the lock is taken first) — shown by holding that lock; a new
/// message makes it wait for the lock, and answers it.
@Suite struct UnchangedMaildirTests {
    @Test func nothingNewIsAnsweredWithoutTheLockOrTheState() throws {
        let b = try MaildirTests().box()
        defer { try? FileManager.default.removeItem(atPath: b.root) }
        try b.deliver("1700000001.M1P1.host", MaildirTests.invitation(1))
        try b.deliver("1700000002.M2P1.host", MailCorpus.noInvitation())
        try b.deliver("1700000003.M3P1.host:2,RS", MaildirTests.invitation(3), folder: "cur")
        let first = try b.merge()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try MaildirTests().names(first) == ["new/1700000001.M1P1.host"])
        // The first run wrote the state; the second writes nothing and leaves the stamp.
        let empty = try b.merge()
        #expect(empty.status == 0)
        #expect(try MaildirTests().names(empty) == [])
        let stamps = try FileManager.default.contentsOfDirectory(atPath: b.state).filter { $0.hasSuffix(".listed") }
        #expect(stamps.count == 1)
        // As if the state had been written three seconds before the stamp (file times are coarse).
        for stamp in stamps {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3)], ofItemAtPath: b.state + "/" + stamp)
        }

        let lockName = try FileManager.default.contentsOfDirectory(atPath: b.state).first { $0.hasPrefix("maildir-") && $0.hasSuffix(".lock") }
        let lock = open(b.state + "/" + (lockName ?? "missing"), O_RDWR)
        #expect(lock >= 0)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let quiet = try b.merge(env: ["COOLCAL_LOCK_TIMEOUT": "0"])
        #expect(quiet.status == 0, "the run waited for the lock: \(quiet.status) \(quiet.stderr)")
        #expect(quiet.stdout == empty.stdout)
        #expect(quiet.stderr == "")
        let told = try b.merge(["-v"], env: ["COOLCAL_LOCK_TIMEOUT": "0"])
        #expect(told.stderr.contains(": listed as the last run left it, the state unchanged since\n"), "\(told.stderr)")
        #expect(told.stderr.contains(": 0 invitations pending (policy accept-if-free)\n"), "\(told.stderr)")

        // A new message: the run needs the lock (75 while it is held), then answers it.
        try b.deliver("1700000004.M4P1.host", MaildirTests.invitation(4))
        let locked = try b.merge(env: ["COOLCAL_LOCK_TIMEOUT": "0"])
        #expect(locked.status == 75, "\(locked.stderr)")
        #expect(flock(lock, LOCK_UN) == 0)
        let next = try b.merge()
        #expect(next.status == 0)
        #expect(try MaildirTests().names(next) == ["new/1700000004.M4P1.host"])
    }
}
