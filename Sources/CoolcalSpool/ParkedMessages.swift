import Foundation
import CoolcalModel
import CoolcalSupport
import CoolcalWriting

/// Messages `coolcal process` could not finish (a calendar locked past its deadline, a
/// CalDAV server down, a full disk, a config to mend), kept in the state directory's
/// `parked/` — a Maildir's `tmp/` and `new/`, written as a delivery agent writes: the
/// bytes to `tmp/`, synced, renamed into `new/`, the directory synced — so that the next
/// `process` or `merge` run answers them. A mail server that does not redeliver on a
/// temporary failure (Dovecot's Sieve) loses nothing.
package struct ParkedMessages {
    /// `STATE/parked`.
    package let directory: String

    package init(stateDirectory: String) {
        directory = stateDirectory + "/parked"
    }

    /// Keeps `data`; returns its file name.
    @discardableResult
    package func park(_ data: Data, now: Date = Date()) throws -> String {
        for folder in ["tmp", "new"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let name = "\(Int64(now.timeIntervalSince1970)).P\(getpid())R\(UInt32.random(in: 0...UInt32.max)).coolcal"
        let temporary = directory + "/tmp/" + name
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw WriteError(kind: .io, path: temporary, message: "cannot create the parked copy")
        }
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            unlink(temporary)
            throw WriteError(kind: .io, path: temporary, message: "cannot write the parked copy: \(error)")
        }
        guard rename(temporary, directory + "/new/" + name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(kind: .io, path: directory + "/new/" + name, message: "cannot park the message: \(reason)")
        }
        Self.syncDirectory(directory + "/new")
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
        unlink(path(name))
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
