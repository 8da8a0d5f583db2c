import Foundation
import CoolcalSupport

/// A Maildir as procmail, fetchmail, getmail, offlineimap and mbsync deliver it: messages
/// in `new/` and `cur/` (`tmp/` is where deliveries are still being written, never read).
/// A name in `cur/` carries flags after `:2,` (`S` seen, `R` replied…).
package struct Maildir {
    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    /// One message file.
    package struct Message: Equatable {
        /// `new` or `cur`.
        package let folder: String
        /// The file name in its folder.
        package let file: String
        /// `new/NAME` or `cur/NAME`.
        package var name: String { folder + "/" + file }
        /// The flags after `:2,` (none for a message in `new/`).
        package var flags: String { Maildir.flags(of: file) }
    }

    /// A directory with both `cur/` and `new/`.
    package static func isMaildir(_ directory: String) -> Bool {
        FileStatus.of(directory + "/cur")?.kind == .directory && FileStatus.of(directory + "/new")?.kind == .directory
    }

    /// The directory's real path (symbolic links resolved): the key its record and lock
    /// have in the state, so two spellings of one Maildir share them.
    package var realPath: String {
        (try? SystemCalls.realpath(directory)) ?? directory
    }

    /// The messages of `new/` then `cur/`, each in byte order of the names; hidden files and
    /// anything but regular files are skipped. `new/` is listed first: a mail client moves
    /// messages from `new/` to `cur/`, so one moved meanwhile is still seen once.
    package func messages() throws -> [Message] {
        Self.ordered(try listing())
    }

    /// The messages of `new/` then `cur/`, each folder in the directory's own order (a
    /// caller that looks at most of them only by name sorts the few it keeps: `ordered`).
    /// One directory read per folder; a file is `stat`ed only when its entry has no type
    /// (or is a symbolic link).
    package func listing() throws -> [Message] {
        try listed().messages
    }

    /// `listing`, and the digest of the names it lists.
    func listed() throws -> (messages: [Message], digest: ListingDigest) {
        var all: [Message] = []
        var digest = ListingDigest()
        try forEachMessage { folder, name in
            all.append(Message(folder: folder, file: String(decoding: name, as: UTF8.self)))
            digest.add(folder: folder, name: name)
        }
        return (all, digest)
    }

    /// The digest of what `listing` would list, without a string made for any name.
    func digest() throws -> ListingDigest {
        var digest = ListingDigest()
        try forEachMessage { folder, name in digest.add(folder: folder, name: name) }
        return digest
    }

    /// Each message's folder and file name (its bytes), as `listing` lists them.
    private func forEachMessage(_ body: (String, UnsafeRawBufferPointer) -> Void) throws {
        for folder in ["new", "cur"] {
            let path = directory + "/" + folder
            do {
                try SystemCalls.forEachEntry(in: path) { name, kind in
                    guard name.first != UInt8(ascii: "."),
                          (kind ?? FileStatus.of(path + "/" + String(decoding: name, as: UTF8.self))?.kind) == .regular else { return }
                    body(folder, name)
                }
            } catch {
                throw InputFileError(kind: .unreadable, path: path, reason: "cannot list the Maildir folder")
            }
        }
    }

    /// `messages` in `messages`' order: `new/` first, then each folder in byte order of the names.
    package static func ordered(_ messages: [Message]) -> [Message] {
        messages.sorted { a, b in
            a.folder != b.folder ? a.folder == "new" : a.file.utf8.lexicographicallyPrecedes(b.file.utf8)
        }
    }

    /// The flags of a file name: what follows `:2,`.
    package static func flags(of file: String) -> String {
        guard let range = file.range(of: ":2,", options: .backwards) else { return "" }
        return String(file[range.upperBound...])
    }

    /// The name with `flag` added to its info (`:2,` + flags in ASCII order), as in `cur/`.
    package static func name(_ file: String, adding flag: Character) -> String {
        let base = file.range(of: ":2,", options: .backwards).map { String(file[..<$0.lowerBound]) } ?? file
        var flags = Set(flags(of: file))
        flags.insert(flag)
        return base + ":2," + String(flags.sorted())
    }

    /// Marks a message seen the Maildir way: moved (renamed, never copied) to `cur/` with
    /// `S` added. A message the mail client moved or re-flagged meanwhile is left as it is.
    /// - Returns: the message's new name, or nil when it was no longer there.
    @discardableResult
    package func markSeen(_ message: Message) throws -> String? {
        let target = Self.name(message.file, adding: "S")
        if message.folder == "cur" && target == message.file { return message.name }
        let from = directory + "/" + message.name
        let to = directory + "/cur/" + target
        // Names are unique in a Maildir; never replace a file that is there.
        if FileStatus.of(to) != nil { return nil }
        do throws(SystemCallError) {
            try SystemCalls.rename(from, to)
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw WriteError.errno(error, path: from, doing: "cannot move into \(directory)/cur")
        }
        try AtomicFile.syncDirectory(directory + "/cur")
        if message.folder != "cur" { try AtomicFile.syncDirectory(directory + "/" + message.folder) }
        return "cur/" + target
    }
}
