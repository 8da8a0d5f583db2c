import Foundation
import CoolcalMail
import CoolcalModel
import CoolcalSupport

/// Messages `coolcal process` could not finish, kept in one parking place (`STATE/parked`,
/// or a fallback: `ParkingPlaces`) — a Maildir's `new/` (its `tmp/` made beside it),
/// written by `AtomicFile`: the bytes to a temporary file in `new/` (a dot name, which
/// `names()` and Maildir readers skip; mode 0600), fsynced, renamed to the message's
/// name, `new/` fsynced — so that the next `process` or `merge` run answers them. A mail
/// server that does not redeliver on a temporary failure (Dovecot's Sieve) loses nothing.
///
/// A parked message is named `SECONDS.IDENTITY.coolcal`: the time it was parked (names
/// sort oldest first) and a hash of its identity — its Message-ID and calendar part, as
/// the state remembers it (`MessageIntake.key`) — so a message parked again (an MTA that
/// redelivered it into another fault) is kept once, and one parked in two places is
/// known as one.
package struct ParkedMessages: Sendable {
    /// The parking place: `STATE/parked`, or a fallback.
    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    package init(stateDirectory: String) {
        directory = stateDirectory + "/parked"
    }

    /// The identity part of a parked message's name: the first 32 hex digits of the
    /// SHA-256 of its key (its Message-ID and calendar part, else its bytes).
    package static func identity(_ data: Data) -> String {
        let message = PassThrough.withoutMboxLine(data)
        let key: String
        if let found = try? MessageReader.read(message) {
            key = MessageIntake.key(found.headers, message, calendar: found.calendar)
        } else {
            key = MessageIntake.key(nil, message)
        }
        return String(MessageReader.sha256(Data(key.utf8)).prefix(32))
    }

    /// Keeps `data`; returns its file name (the one it was parked under before, when
    /// a message of its identity waits here already).
    @discardableResult
    package func park(_ data: Data, now: Date = Date()) throws -> String {
        let identity = Self.identity(data)
        var ancestors: [String] = []
        var parent = (directory as NSString).deletingLastPathComponent
        while parent.count > 1, (try? FileStatus(path: parent)) == nil {
            ancestors.insert(parent, at: 0)
            parent = (parent as NSString).deletingLastPathComponent
        }
        for folder in ancestors + [directory, directory + "/tmp", directory + "/new"] { try Self.makeDirectory(folder) }
        if let name = names().first(where: { Self.identity(ofName: $0) == identity }) { return name }
        let name = "\(Int64(now.timeIntervalSince1970)).\(identity).coolcal"
        let final = directory + "/new/" + name
        do {
            try AtomicFile.write(data, to: final, keeping: nil, newMode: 0o600, syncingDirectory: false)
        } catch let error as WriteError {
            throw error.reworded("cannot park the message")
        }
        do {
            try AtomicFile.syncDirectory(directory + "/new")
        } catch let error as WriteError {
            throw error.reworded("cannot sync the parked message")
        }
        return name
    }

    /// The parked messages' names, oldest first.
    package func names() -> [String] {
        ((try? SystemCalls.listDirectory(directory + "/new")) ?? [])
            .map(\.name).filter { !$0.hasPrefix(".") }.sorted()
    }

    package func path(_ name: String) -> String { directory + "/new/" + name }

    /// Removes a parked message once it is answered (or known to be).
    package func remove(_ name: String) {
        try? SystemCalls.unlink(path(name))
    }

    /// The identity in a parked message's name (`SECONDS.IDENTITY.coolcal`); nil for a
    /// name of older runs (`SECONDS.PpidRrandom.coolcal`), which are known by their bytes.
    package static func identity(ofName name: String) -> String? {
        let parts = name.split(separator: ".")
        guard parts.count == 3, parts[2] == "coolcal", parts[1].count == 32, parts[1].allSatisfy(\.isHexDigit) else { return nil }
        return String(parts[1])
    }

    /// `mkdir` 0700 unless it exists (a directory there, or `mkdir`'s error stands).
    private static func makeDirectory(_ path: String) throws {
        do throws(SystemCallError) {
            try SystemCalls.mkdir(path, 0o700)
        } catch where error.errno == .fileExists {
            if let status = try? FileStatus(path: path), status.kind == .directory { return }
            throw WriteError(kind: .cannotCreate, path: path, message: "cannot park the message: not a directory")
        } catch {
            throw WriteError.errno(error, path: path, doing: "cannot park the message")
        }
    }
}
