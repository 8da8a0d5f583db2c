import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// An mbox file (RFC 4155) as `merge`'s spool: every message in it, in file order, each
/// taken in as a Maildir's are (`MessageIntake`: remembered in the state by Message-ID
/// and calendar part under the file's real path, so later runs skip it). The file is
/// only read, never changed (`--mark` has nothing to mark). Its run lock lives in the
/// state directory, as a Maildir's.
package final class MboxSource: MailboxSource {
    package let path: String
    private let intake: MessageIntake
    private let lock: FileLock
    /// For each item name: the key it is remembered by, and its invitation's id.
    private var pending: [String: (key: String, inviteID: String?)] = [:]

    package var directory: String { path }

    /// An mbox is read whole, up to this size.
    package static let maxBytes = 1 << 30

    /// `report`: a `--policy report` run, remembered apart (as a Maildir's).
    package init(path: String, store: StateStore, now: Date, lockTimeout: TimeInterval, report: Bool = false) throws {
        self.path = path
        let realPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        intake = MessageIntake(store: store, realPath: MailboxKeys.memory(realPath: realPath, report: report), now: now)
        lock = try FileLock(path: MailboxKeys.file(in: store.directory, key: realPath, suffix: "lock"), inState: true, timeout: lockTimeout)
    }

    /// Whether `path` is a regular file that starts like an mbox (`From `).
    package static func isMbox(_ path: String) -> Bool {
        guard FileStatus.of(path)?.kind == .regular, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 5)) == Data("From ".utf8)
    }

    package func items(floatingZone: TimeZone, diagnostics: Diagnostics) throws -> [SpoolItem] {
        let data = try InputFile.read(path, limit: Self.maxBytes, accepting: .regularFiles)
        guard let ranges = Mbox.messages(in: data) else {
            throw InputFileError(kind: .unreadable, path: path, reason: "not an mbox (it does not start with a 'From ' line)")
        }
        var items: [SpoolItem] = []
        for (n, range) in ranges.enumerated() {
            let name = "\(URL(fileURLWithPath: path).lastPathComponent)#\(n + 1)"
            let message = data.subdata(in: range)
            guard message.count <= MessageReader.maxBytes else {
                diagnostics.warn("\(name): skipped: \(MessageReader.tooLarge(message.count))")
                continue
            }
            switch try intake.take(name: name, path: name, data: message, floatingZone: floatingZone, diagnostics: diagnostics) {
            case .skipped, .seen: continue
            case .bounded(let reason): diagnostics.warn("\(name): \(reason)")
            case .item(let item, let key, let inviteID):
                pending[name] = (key, inviteID)
                items.append(item)
            }
        }
        try intake.flush()
        return items
    }

    /// Every item of a run remembered in one commit.
    package func finish(_ items: [MergeFinished]) throws {
        try intake.remember(items, pending: pending)
    }

    package func unlock() { lock.unlock() }
}
