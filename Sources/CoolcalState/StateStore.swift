import Foundation
import CoolcalModel
import CoolcalSupport

/// The app's memory in `--state DIR`, in one SQLite database (`state.db`, WAL): its
/// files and schema, and the answers given (`StateStore+Answers`) and the events written
/// for them (`StateStore+Written`); beside it, small stores on the same connection, one
/// per concept: `inbox`, `badge`, `outbox`, `mailReplies`, `senders`, `spools`, ….
///
/// Each `StateStore` is one connection, used from one thread; many stores, in one
/// process or in several coolcal processes, may share a directory at once. Every
/// write is one `BEGIN IMMEDIATE` transaction retried while another writer holds the
/// lock, so none of them loses a row or reports "database is locked".
/// The directory is created `0700` and the database files are `0600`: the state holds
/// what people wrote in comments.
package final class StateStore {
    /// The database's file name inside the state directory.
    package static let fileName = "state.db"

    /// The state directory.
    package let directory: String
    package let database: SQLiteDatabase

    /// The database file.
    package var databasePath: String { directory + "/" + Self.fileName }

    /// Opens (creating if needed) the state in `directory` and brings its schema up to date.
    ///
    /// - Parameter busyTimeout: how long SQLite waits for another writer on each try;
    ///   `transaction` retries on top of it for up to `retryWindow` seconds.
    /// - Throws: `StateError` (directory or file cannot be created), `SQLiteError`.
    package init(directory: String, busyTimeout: TimeInterval = 10, retryWindow: TimeInterval = 30) throws {
        self.directory = directory
        try Self.makeDirectory(directory)
        let path = directory + "/" + Self.fileName
        try Self.createPrivateFile(path)
        try Self.refuseForeign(path)
        database = try SQLiteDatabase(path: path, busyTimeout: busyTimeout, retryWindow: retryWindow)
        try migrate()
        tightenFileModes()
    }

    // MARK: Files

    /// Creates the directory `0700` (its parents with the usual mode, like `mkdir -p`).
    /// An existing directory is used as it is: its mode is the owner's choice.
    private static func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StateError(kind: .cannotCreate, path: path, message: "not a directory")
            }
            return
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? SystemCalls.makeDirectories(parent, 0o777)
        // Another coolcal may create it between the check and mkdir: EEXIST is fine.
        do throws(SystemCallError) { try SystemCalls.mkdir(path, 0o700) } catch where error.errno != .fileExists {
            throw StateError.errno(error, path: path, doing: "cannot create the state directory")
        } catch {}
        // mkdir's mode is filtered by the umask; make it exactly 0700.
        do throws(SystemCallError) { try SystemCalls.chmod(path, 0o700) } catch {
            throw StateError.errno(error, path: path, doing: "cannot set the state directory's mode")
        }
    }

    /// Creates an empty database file `0600` before SQLite opens it, because SQLite
    /// would create it `0644` and gives its `-wal`/`-shm` files the main file's mode.
    ///
    /// The file is made under a temporary name and linked into place: closing any
    /// descriptor of the database drops every POSIX lock this process holds on it,
    /// and another `StateStore` in this process may already have it open and locked.
    private static func createPrivateFile(_ path: String) throws {
        if (try? SystemCalls.access(path, F_OK)) != nil { return }
        let temp = path + "." + UUID().uuidString + ".new"
        let fd: Int32
        do throws(SystemCallError) { fd = try SystemCalls.open(temp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) } catch {
            throw StateError.errno(error, path: temp, doing: "cannot create the state file")
        }
        defer { try? SystemCalls.unlink(temp) }
        try setPrivateMode(fd, path: temp)
        do throws(SystemCallError) {
            try SystemCalls.link(temp, path)
        } catch where error.errno == .fileExists {
            return  // another coolcal created it first
        } catch where error.errno == .notPermitted || error.errno == .notSupported {
            // No hard links on this file system: create it in place, which can never
            // replace a database another coolcal made meanwhile (one process opens it once).
            let direct: Int32
            do throws(SystemCallError) { direct = try SystemCalls.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600) } catch {
                if error.errno == .fileExists { return }
                throw StateError.errno(error, path: path, doing: "cannot create the state file")
            }
            try setPrivateMode(direct, path: path)
        } catch {
            throw StateError.errno(error, path: path, doing: "cannot create the state file")
        }
    }

    /// `fchmod` of a file just created to exactly `0600` (open's mode went through the
    /// umask), its failure thrown; then `close`, which releases the descriptor anyway.
    private static func setPrivateMode(_ fd: Int32, path: String) throws {
        defer { try? SystemCalls.close(fd, path: path) }
        do throws(SystemCallError) { try SystemCalls.fchmod(fd, 0o600, path: path) } catch {
            throw StateError.errno(error, path: path, doing: "cannot set the state file's mode")
        }
    }

    /// Makes the database and its WAL files `0600` even when an older or foreign tool
    /// created them looser. Best effort: a file we do not own keeps its mode, and the
    /// WAL files may not exist (SQLite deletes them when the last connection closes).
    private func tightenFileModes() {
        // Only where it differs: a chmod changes the inode's ctime, which `StateMark` reads.
        for suffix in ["", "-wal", "-shm"] where FileStatus.of(databasePath + suffix).map({ $0.permissions != 0o600 }) ?? false {
            try? SystemCalls.chmod(databasePath + suffix, 0o600)
        }
    }

    /// The schema steps (`StateSchema`); `PRAGMA user_version` counts those run.
    package static var migrations: [String] { StateSchema.steps }

    /// Runs `body`'s writes to the state as one transaction: one commit, one sync, for
    /// all the answers of a `merge` run. The state's methods called inside join it; on
    /// a database that stays busy it is rolled back and run again, so `body` must only
    /// touch the state.
    package func together<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(.immediate, body)
    }

    private func schemaVersion() throws -> Int {
        try Int(database.prepare("PRAGMA user_version").row { $0.int(0) } ?? 0)
    }

    /// Looks before touching: a database of a newer coolcal, or another program's
    /// SQLite file, is refused (73) without switching it to WAL or adding tables.
    private static func refuseForeign(_ path: String) throws {
        // When it cannot even be read, the normal open below says why. Version and tables
        // are read in one statement: one snapshot, so another coolcal creating the schema
        // right now is never seen half-way (tables but no version yet).
        guard let probe = try? SQLiteDatabase(path: path, flags: [.readOnly], busyTimeout: 10, retryWindow: 30),
              let (version, tables) = try? probe.retrying({
                  try probe.prepare("SELECT user_version, (SELECT count(*) FROM sqlite_master) FROM pragma_user_version")
                      .row { (Int($0.int(0)), Int($0.int(1))) } ?? (0, 0)
              })
        else { return }
        if let refusal = newer(version, path: path) { throw refusal }
        if version == 0 && tables > 0 {
            throw StateError(kind: .cannotCreate, path: path, message: "not a coolcal state database; not modified")
        }
    }

    /// The refusal (73) of a state whose schema is newer than the `supported` steps: what
    /// every coolcal checks on open, so an older one refuses a state a newer one upgraded.
    package static func newer(_ version: Int, supported: Int = migrations.count, path: String) -> StateError? {
        version > supported
            ? StateError(kind: .cannotCreate, path: path, message: "written by a newer coolcal (schema \(version)); upgrade coolcal")
            : nil
    }

    /// Runs the missing schema steps in one write transaction, so two coolcals opening
    /// a new state at once run them exactly once between them.
    private func migrate() throws {
        // A plain read first: the usual case (up to date) then never takes the write lock.
        if try database.retrying({ try schemaVersion() }) == Self.migrations.count { return }
        try database.transaction(.immediate) {
            let version = try schemaVersion()
            if let refusal = Self.newer(version, path: databasePath) { throw refusal }
            guard version < Self.migrations.count else { return }
            for step in Self.migrations[version...] { try database.execute(step) }
            try database.execute("PRAGMA user_version = \(Self.migrations.count)")
        }
    }

    // MARK: The stores on this connection

    /// The inbox of received invitations.
    package var inbox: InboxTable { InboxTable(database: database, path: databasePath) }
    /// The app icon's badge count.
    package var badge: Badge { Badge(database: database) }
    /// The requests waiting for the server or a sendmail.
    package var outbox: Outbox { Outbox(database: database, path: databasePath) }
    /// The answers mailed, or to be mailed, once per version.
    package var mailReplies: MailReplies { MailReplies(database: database) }

    // MARK: Row helpers

    /// Reads back a time stored as `OccurrenceTime.jsonString`; a damaged one is the
    /// error of the database at `path`.
    package static func time(_ text: String?, column: String, id: String, path: String) throws -> OccurrenceTime {
        guard let text, let time = try? InviteDate.parse(text) else {
            throw StateError(kind: .io, path: path, message: "damaged state: \(column) of '\(id)' is '\(text ?? "NULL")'")
        }
        return time
    }

    func time(_ text: String?, column: String, id: String) throws -> OccurrenceTime {
        try Self.time(text, column: column, id: id, path: databasePath)
    }

    package static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}
