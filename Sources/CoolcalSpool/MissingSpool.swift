import Foundation
import CoolcalSupport

/// A spool that does not exist is not created (an empty Maildir may be one not mounted
/// yet, and creating it would hide a typo): `merge` exits 0 and says what to create,
/// once a day per path. The day is a stamp in the state directory,
/// `maildir-HASH.missing`, HASH of the path as given made absolute; its time is when
/// it was last said.
package enum MissingSpool {
    /// How long one warning holds for a path.
    package static let quiet: TimeInterval = 86_400

    /// True when nothing is at `path` (not even a dangling link).
    package static func isMissing(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)) == nil
    }

    /// What to say.
    package static func message(_ path: String) -> String {
        "\(path) does not exist: create it (mkdir -p \(path)/cur \(path)/new \(path)/tmp) or point spool at your filter's folder"
    }

    /// True when the warning is due for `path` (never said, or said more than a day
    /// before `now`); it is then noted as said now. A stamp that cannot be written
    /// leaves the warning due on every run.
    package static func due(_ path: String, stateDirectory: String, now: Date) -> Bool {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let stamp = MailboxKeys.file(in: stateDirectory, key: "missing:" + absolute, suffix: "missing")
        if let said = (try? FileManager.default.attributesOfItem(atPath: stamp))?[.modificationDate] as? Date,
           now.timeIntervalSince(said) < quiet, said <= now {
            return false
        }
        try? SystemCalls.makeDirectories(stateDirectory, 0o700)
        try? AtomicFile.write(Data((absolute + "\n").utf8), to: stamp, keeping: nil, syncingDirectory: false)
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: stamp)
        return true
    }
}
