import Foundation
import Testing

/// Issue #45: the lock files and the listing stamp in the state directory are 0600 like
/// the rest of the state (`process.lock`, `maildir-HASH.lock`, `maildir-HASH.listed`);
/// one an older coolcal made 0644 is made 0600, and one already 0600 is not touched
/// (its ctime stays: a chmod would move it).
@Suite struct StateFileModeTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    func ctime(_ path: String) -> timespec {
        var info = stat()
        _ = stat(path, &info)
        return info.st_ctim
    }

    @Test func everyFileInTheStateIs0600() throws {
        let b = try MaildirTests().box()
        defer { try? FileManager.default.removeItem(atPath: b.root) }
        try b.deliver("1700000001.M1P1.host", MaildirTests.invitation(1))
        #expect(try b.merge().status == 0)
        #expect(try b.merge().status == 0)  // nothing new: the listing stamp stays
        var d = try FaultDesk()
        d.state = b.state
        let delivered = try d.deliver(FaultDesk.invitation("mode@example.org"))
        #expect(delivered.status == 0, "\(delivered.stdout)\(delivered.stderr)")
        #expect(FileManager.default.fileExists(atPath: b.state + "/process.lock"))
        let names = try FileManager.default.contentsOfDirectory(atPath: b.state)
        for suffix in [".lock", ".listed"] {
            #expect(names.contains { $0.hasPrefix("maildir-") && $0.hasSuffix(suffix) }, "no maildir-HASH\(suffix): \(names)")
        }
        var isDirectory: ObjCBool = false
        for name in names where FileManager.default.fileExists(atPath: b.state + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue {
            #expect(mode(b.state + "/" + name) == 0o600, "\(name) is \(String(mode(b.state + "/" + name), radix: 8))")
        }
    }

    @Test func process0644LockIsMade0600AndA0600OneIsNotTouched() throws {
        let d = try FaultDesk()
        try FileManager.default.createDirectory(atPath: d.state, withIntermediateDirectories: true)
        let lock = d.state + "/process.lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: nil, attributes: [.posixPermissions: 0o644]))
        #expect(try d.deliver(FaultDesk.invitation("lock-1@example.org")).status == 0)
        #expect(mode(lock) == 0o600)
        let before = ctime(lock)
        usleep(20_000)
        #expect(try d.deliver(FaultDesk.invitation("lock-2@example.org", start: "20310310T100000Z")).status == 0)
        let after = ctime(lock)
        #expect(before.tv_sec == after.tv_sec && before.tv_nsec == after.tv_nsec, "the 0600 lock file was changed")
    }
}
