import Foundation
import Glibc

/// A real RFC 6638 scheduling server: Debian's Cyrus IMAP with its CalDAV (`make deps-test`
/// installs `cyrus-imapd cyrus-caldav cyrus-admin sasl2-bin`), run from a temporary directory on
/// 127.0.0.1 ports (CalDAV over HTTP, and IMAP, whose first login creates a user's mailbox, which
/// CalDAV needs), with its own password database, no syslog, no systemd; `sendmail: /bin/true`.
/// `master` starts as root and drops to `cyrus`; `stop` kills it and every service it forked,
/// so no daemon is left (../shared/docs/CYRUS-NOTES.md has the measured facts).
///
/// One process per service (`maxchild=1`): Debian's Cyrus 3.6 names each new mailbox by a
/// pseudo-random id that two fresh processes started in the same second both draw alike.
/// Measured: Olga's and Bob's INBOX created by two imapd processes in one second got one id,
/// so their per-user data (the DAV index) was one file, Bob's events were indexed in
/// Olga's, and Bob's answer was refused with 403 `unique-scheduling-object-resource` naming
/// Olga's copy. Master forks a second process only while the first is still busy, so it
/// happened under load only. A single process draws each id once.
final class CyrusServer {
    static let master = "/usr/lib/cyrus/bin/master"
    static let password = "pw-for-tests"

    let server: ServerProcess
    let imapPort: Int
    private var stopped = false

    init(users: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.master) else {
            throw SetupError("no \(Self.master): run `make deps-test` (cyrus-imapd, cyrus-caldav, sasl2-bin)")
        }
        guard getuid() == 0 else { throw SetupError("Cyrus's master starts as root (it drops to cyrus itself)") }
        let home = try ServerProcess.temporaryHome("cyrus")
        let d = home.path
        for sub in ["conf/db", "conf/socket", "conf/log", "conf/proc", "conf/lock", "conf/quota", "conf/user", "conf/msg",
                    "conf/sieve", "part"] {
            try FileManager.default.createDirectory(atPath: d + "/" + sub, withIntermediateDirectories: true)
        }
        // Cyrus's telemetry: every session of a user with a directory here is written into it,
        // requests and answers (the only log there is without syslog): what `log(_:)` reads.
        for user in users {
            try FileManager.default.createDirectory(atPath: d + "/conf/log/" + user, withIntermediateDirectories: true)
        }
        let http = try ServerProcess.freePort()
        var imap = try ServerProcess.freePort()
        while imap == http { imap = try ServerProcess.freePort() }
        try """
            configdirectory: \(d)/conf
            partition-default: \(d)/part
            proc_path: \(d)/conf/proc
            mboxname_lockpath: \(d)/conf/lock
            sievedir: \(d)/conf/sieve
            idlesocket: \(d)/conf/socket/idle
            notifysocket: \(d)/conf/socket/notify
            lmtpsocket: \(d)/conf/socket/lmtp
            servername: localhost
            httpmodules: caldav
            calendar_user_address_set: example.com
            allowplaintext: yes
            sasl_pwcheck_method: auxprop
            sasl_auxprop_plugin: sasldb
            sasl_sasldb_path: \(d)/sasldb2
            sasl_mech_list: PLAIN LOGIN
            autocreate_quota: 0
            sendmail: /bin/true

            """.write(toFile: d + "/imapd.conf", atomically: true, encoding: .utf8)
        try """
            START {
            }
            SERVICES {
              imap cmd="imapd -C \(d)/imapd.conf" listen="127.0.0.1:\(imap)" prefork=0 maxchild=1
              http cmd="httpd -C \(d)/imapd.conf" listen="127.0.0.1:\(http)" prefork=0 maxchild=1
            }
            EVENTS {
            }

            """.write(toFile: d + "/cyrus.conf", atomically: true, encoding: .utf8)
        for user in users {
            try Self.run("/usr/sbin/saslpasswd2", ["-p", "-c", "-f", d + "/sasldb2", "-u", "localhost", user], stdin: Self.password)
        }
        try Self.run("/bin/chown", ["-R", "cyrus:mail", d])
        chmod(d, 0o755)
        // Through python3 only to give master the plain process a shell would: the signals the
        // test runner's children inherit blocked unblocked, and a common limit on open files
        // (Cyrus closes every possible descriptor when it forks a service).
        let unblocked = "import os, resource, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024)); os.execv(sys.argv[1], sys.argv[1:])"
        server = try ServerProcess(home: home, port: http, executable: "/usr/bin/python3",
                                   arguments: ["-c", unblocked, Self.master, "-C", d + "/imapd.conf", "-M", d + "/cyrus.conf",
                                               "-p", d + "/master.pid"])
        imapPort = imap
        let deadline = Date().addingTimeInterval(20)
        while !ServerProcess.accepts(imap) {
            guard Date() < deadline else {
                stop()
                throw SetupError("Cyrus did not listen for IMAP on \(imap)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // A user's mailbox (made at the first IMAP login), then their calendars (made at the
        // first authenticated DAV request, which must succeed): CalDAV makes neither by itself.
        for user in users {
            try Self.run("/usr/bin/curl", ["-s", "-m", "10", "imap://127.0.0.1:\(imap)/", "-u", "\(user):\(Self.password)"])
            try Self.run("/usr/bin/curl", ["-s", "-f", "-m", "10", "-o", "/dev/null", "-X", "PROPFIND", "-H", "Depth: 1",
                                           "-u", "\(user):\(Self.password)", "http://127.0.0.1:\(http)/dav/calendars/user/\(user)/"])
        }
        // What the server says each user's INBOX is (RFC 8474 MAILBOXID): one id for two users
        // would make them share their data; refused here rather than seen as a 403 later.
        let ids = try users.map { user in
            try Self.run("/usr/bin/curl", ["-s", "-m", "10", "imap://127.0.0.1:\(imap)/", "-u", "\(user):\(Self.password)",
                                           "-X", "STATUS INBOX (MAILBOXID)"])
        }
        guard Set(ids).count == users.count else {
            stop()
            throw SetupError("Cyrus gave two users' INBOXes one id: \(ids.joined(separator: " "))")
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: server.home)
    }

    /// The URL of `user`'s default calendar, with their credentials.
    func calendar(_ user: String) -> String {
        "http://\(user):\(Self.password)@127.0.0.1:\(server.port)/dav/calendars/user/\(user)/Default/"
    }

    /// What Cyrus logged of `user`'s sessions (telemetry: each session's requests and
    /// answers, in one file per process), for a failure's message.
    func log(_ user: String) -> String {
        let dir = server.home.path + "/conf/log/" + user
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
        return names.map { name in
            "== \(name)\n" + String(decoding: FileManager.default.contents(atPath: dir + "/" + name) ?? Data(), as: UTF8.self)
        }.joined(separator: "\n")
    }

    /// Kills `master` and every process it forked (a service still serving a connection).
    func stop() {
        guard !stopped else { return }
        stopped = true
        let children = Self.descendants(of: server.pid)
        // SIGTERM first: master stops its services and exits (its signals are unblocked);
        // whatever is left after two seconds is killed.
        kill(server.pid, SIGTERM)
        let calm = Date().addingTimeInterval(2)
        while server.isRunning && Date() < calm { Thread.sleep(forTimeInterval: 0.02) }
        server.stop()
        for pid in children { kill(pid, SIGKILL) }
        let deadline = Date().addingTimeInterval(5)
        while children.contains(where: { kill($0, 0) == 0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Whether any process still runs from this server's directory (none should, after `stop`).
    var leftRunning: Bool {
        Self.processes().contains { $0.command.contains(server.home.path) }
    }

    static func descendants(of root: Int32) -> [Int32] {
        let all = processes()
        var found: [Int32] = []
        var frontier: Set<Int32> = [root]
        while !frontier.isEmpty {
            let next = all.filter { frontier.contains($0.parent) }.map(\.pid)
            found += next
            frontier = Set(next)
        }
        return found
    }

    /// Every process: its id, its parent's and its command line.
    static func processes() -> [(pid: Int32, parent: Int32, command: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline")))
                .map { String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self) } ?? ""
            return (pid, parent, command)
        }
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SetupError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
        return text
    }
}
