import Foundation
import CoolcalState
import CoolcalSupport

/// What a Maildir run leaves beside the state when it settled everything it listed: the
/// digest of the listing (as its own `--mark` left it), the state's mark, and until when
/// nothing is due (a name missing from the Maildir is forgotten a day after it went). A
/// later run that finds the same names, the state unwritten since and nothing due would
/// do nothing: it returns before the state is opened or a message read (`unchanged`).
///
/// A cache, never the record: the state is. A stamp lost, torn or stale costs one run
/// that looks at everything; a run that leaves something unsettled removes it.
struct MaildirStamp {
    let memory: String
    let listing: ListingDigest
    let state: StateMark
    /// When a name noted missing is due to be forgotten; nil: none is missing.
    let due: Date?

    /// The stamp's file: `maildir-HASH.listed` in the state directory, by the memory.
    static func path(stateDirectory: String, memory: String) -> String {
        MailboxKeys.file(in: stateDirectory, key: memory, suffix: "listed")
    }

    private static let header = "coolcal maildir listing 1"

    /// `path`'s stamp and the time the file system gave it; nil when it is missing or unreadable.
    static func read(_ path: String) -> (stamp: MaildirStamp, written: Int64)? {
        guard let fd = try? SystemCalls.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { try? SystemCalls.close(fd, path: path) }
        guard let status = try? FileStatus(descriptor: fd, path: path), status.kind == .regular, status.size <= 8192 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.size) + 1)
        let count = bytes.withUnsafeMutableBytes { (try? SystemCalls.read(fd, into: $0, path: path)) ?? -1 }
        guard count == Int(status.size), let stamp = MaildirStamp(text: String(decoding: bytes[..<count], as: UTF8.self)) else { return nil }
        return (stamp, status.modifiedNanoseconds)
    }

    init(memory: String, listing: ListingDigest, state: StateMark, due: Date?) {
        self.memory = memory
        self.listing = listing
        self.state = state
        self.due = due
    }

    /// Four lines after the header: `listing`, `state`, `due` (seconds, or `-`), then `memory`
    /// (last: a path may hold anything but a newline, and one with a newline never matches).
    var text: String {
        [Self.header, "listing " + listing.text, "state " + state.text,
         "due " + (due.map { String($0.timeIntervalSince1970) } ?? "-"), "memory " + memory, ""].joined(separator: "\n")
    }

    init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 6, lines[0] == Self.header, lines[5].isEmpty,
              lines[1].hasPrefix("listing "), let listing = ListingDigest(text: lines[1].dropFirst(8)),
              lines[2].hasPrefix("state "), let state = StateMark(text: lines[2].dropFirst(6)),
              lines[3].hasPrefix("due "), lines[4].hasPrefix("memory ") else { return nil }
        let due = lines[3].dropFirst(4)
        if due == "-" {
            self.due = nil
        } else if let seconds = Double(due) {
            self.due = Date(timeIntervalSince1970: seconds)
        } else {
            return nil
        }
        self.listing = listing
        self.state = state
        memory = String(lines[4].dropFirst(7))
    }

    /// Writes the stamp (a temporary file renamed over the last one), 0600 like the
    /// rest of the state.
    func write(_ path: String) throws {
        try AtomicFile.write(Data(text.utf8), to: path, keeping: nil, newMode: 0o600, syncingDirectory: false)
    }

    /// Removes `path`'s stamp, if any.
    static func remove(_ path: String) {
        try? SystemCalls.unlink(path)
    }
}

extension MaildirSource {
    /// True when a run over `directory` would do nothing: its stamp says the same names
    /// were listed when the last run settled them all, the state is as that run left it,
    /// and no name missing from the Maildir is due to be forgotten by `now`. Neither the
    /// state nor a message is opened; the Maildir is listed without a string made for a
    /// name. Anything unreadable or unsure is false: the run then looks at everything.
    package static func unchanged(_ directory: String, stateDirectory: String, report: Bool, now: Date) -> Bool {
        guard Maildir.isMaildir(directory) else { return false }
        let maildir = Maildir(directory: directory)
        let memory = MailboxKeys.memory(realPath: maildir.realPath, report: report)
        guard let (stamp, written) = MaildirStamp.read(MaildirStamp.path(stateDirectory: stateDirectory, memory: memory)),
              stamp.memory == memory, stamp.due.map({ now < $0 }) ?? true,
              let state = StateMark.of(directory: stateDirectory), state == stamp.state, state.settled(before: written),
              let listing = try? maildir.digest() else { return false }
        return listing == stamp.listing
    }
}
