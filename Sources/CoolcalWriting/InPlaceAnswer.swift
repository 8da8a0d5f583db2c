import Foundation
import CoolcalModel
import CoolcalSupport

/// An invitation found pending in a file or vdir answered where it lives (issue 49):
/// the stored copy's blocks of its UID edited by `PendingAnswerEdit`, every other byte
/// kept, under the calendar's lock, through a temp file, fsync and rename, read back by
/// libical first. Never the invitation's own version written, never a block removed.
package struct InPlaceAnswer {
    package let writer: CalendarWriter
    package let me: [String]

    package init(writer: CalendarWriter, me: [String]) {
        self.writer = writer
        self.me = me
    }

    /// What answering did.
    package enum Outcome: Equatable {
        /// These files were edited.
        case edited(String)
        /// No block of the UID has my ATTENDEE pending any more (answered already, elsewhere).
        case notPending(String)
    }

    /// Answers UID `uid` in the calendar at `location` (a file, or the vdir holding it);
    /// `stamp` is the new DTSTAMP (`yyyyMMdd'T'HHmmss'Z'`).
    package func answer(uid: String, at location: CalendarLocation, partstat: String, stamp: String,
                        comment: String?) throws -> Outcome {
        let path: String
        switch location {
        case .file(let p): path = p
        case .vdir(let dir):
            guard let found = Self.item(holding: uid, in: dir, depth: 2) else {
                throw WriteError(kind: .io, path: dir, message: "no event with UID \(uid) here any more; nothing written")
            }
            path = found
        case .remote(let url):
            return try answerRemote(uid: uid, url: url, partstat: partstat, stamp: stamp, comment: comment)
        }
        let (real, lock) = try writer.lockFile(path)
        defer { lock.unlock() }
        let existing = try AtomicFile.replaceable(real)
        let data = try Data(contentsOf: URL(fileURLWithPath: real))
        guard let edited = Self.edited(data, uid: uid, me: me, partstat: partstat, stamp: stamp, comment: comment) else {
            return .notPending(path)
        }
        try CalendarWriter.verify(edited, has: uid, file: path)
        try AtomicFile.write(edited, to: real, keeping: existing, unchanged: {
            (try? Data(contentsOf: URL(fileURLWithPath: real))) == data
        })
        return .edited(path)
    }

    /// `data` with every block of UID `uid` where I am pending answered; nil when none is.
    static func edited(_ data: Data, uid: String, me: [String], partstat: String, stamp: String, comment: String?) -> Data? {
        let bytes = Array(data)
        let text = CalendarText(bytes: data)
        let cuts = text.candidateBlocks(uid: uid, marker: nil).filter { Self.uid(of: Array(bytes[$0])) == uid }.compactMap { range in
            PendingAnswerEdit.answer(Array(bytes[range]), me: me, partstat: partstat, stamp: stamp, comment: comment).map { (range, $0) }
        }
        guard !cuts.isEmpty else { return nil }
        return Splice(base: data, cuts: cuts)?.data
    }

    /// The UID of a VEVENT block (its own, unfolded), nil when it has none.
    static func uid(of block: [UInt8]) -> String? {
        let unfolded = String(decoding: ContentLines.unfolded(block), as: UTF8.self)
        for line in unfolded.split(whereSeparator: \.isNewline) where line.uppercased().hasPrefix("UID") {
            let rest = line.dropFirst(3)
            guard let colon = rest.firstIndex(of: ":"), rest.first == ":" || rest.first == ";" else { continue }
            return String(rest[rest.index(after: colon)...])
        }
        return nil
    }

    /// The first `.ics` file under `dir` (its vdirs `depth` deep) with a VEVENT of UID `uid`.
    package static func item(holding uid: String, in dir: String, depth: Int) -> String? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
        for name in names where name.hasSuffix(".ics") {
            let path = dir + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = Array(data)
            if CalendarText(bytes: data).candidateBlocks(uid: uid, marker: nil).contains(where: { uid == Self.uid(of: Array(bytes[$0])) }) {
                return path
            }
        }
        guard depth > 1 else { return nil }
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let path = dir + "/" + name
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
               let found = item(holding: uid, in: path, depth: depth - 1) {
                return found
            }
        }
        return nil
    }
}
