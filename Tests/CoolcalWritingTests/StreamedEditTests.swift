import Foundation
import Testing
@testable import CoolcalICal
@testable import CoolcalModel
@testable import CoolcalSupport
@testable import CoolcalWriting

/// Issue #48: an edit of a large calendar holds only the blocks it looks at, and writes
/// what an edit of the file read whole writes. Each test edits two copies of one file,
/// one streamed (`streamFrom: 0`), one read whole (`Int.max`), and compares.
@Suite struct StreamedEditTests {
    static let window = TimeWindow(start: 1_706_745_600, end: 1_707_523_200)
    static let stored = "BEGIN:VEVENT\r\nUID:mid@t\r\nDTSTAMP:20240101T000000Z\r\nSEQUENCE:0\r\nDTSTART:20240201T100000Z\r\n"
        + "DTEND:20240201T110000Z\r\nSUMMARY:Planning\r\nORGANIZER:mailto:o@example.org\r\n"
        + "ATTENDEE;PARTSTAT=ACCEPTED:mailto:me@example.com\r\nEND:VEVENT\r\n"

    /// A calendar of about 1 MB with the event `mid@t` in its middle, in `dir` twice.
    static func copies(in dir: String) throws -> (streamed: String, whole: String, bytes: Data) {
        let events = (0..<4000).map { CarriedTextTests.event($0) }
        let text = CarriedTextTests.head + CarriedTextTests.zone + events[..<2000].joined() + stored + events[2000...].joined()
            + "END:VCALENDAR\r\n"
        let bytes = Data(text.utf8)
        for name in ["s.ics", "w.ics"] { try bytes.write(to: URL(fileURLWithPath: dir + "/" + name)) }
        return (dir + "/s.ics", dir + "/w.ics", bytes)
    }

    /// The organizer's update of `mid@t`: a new time and title.
    static func update() throws -> ITIPChange {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//org//EN\r\nMETHOD:REQUEST\r\n"
            + stored.replacingOccurrences(of: "SEQUENCE:0", with: "SEQUENCE:1")
                .replacingOccurrences(of: "DTSTAMP:20240101T000000Z", with: "DTSTAMP:20240105T000000Z")
                .replacingOccurrences(of: "SUMMARY:Planning", with: "SUMMARY:Planning moved")
                .replacingOccurrences(of: "20240201T1", with: "20240202T1")
            + "END:VCALENDAR\r\n"
        let data = Data(text.utf8)
        let message = try ITIPMessage(data, uid: "mid@t", zones: try ICalReader.read(data, file: "m.ics").zones, file: "m.ics")
        var change = ITIPChange(message: message, cancel: false, me: ["me@example.com"])
        change.partstat = "ACCEPTED"
        return change
    }

    /// Applies `changes` to both copies and commits: the outcomes, and the edits.
    static func both(_ changes: [CalendarChange], _ files: (streamed: String, whole: String, bytes: Data))
        throws -> (outcomes: [[WriteOutcome]], edits: [CalendarFileEdit]) {
        var outcomes: [[WriteOutcome]] = [], edits: [CalendarFileEdit] = []
        for (file, from) in [(files.streamed, 0), (files.whole, Int.max)] {
            let edit = try CalendarFileEdit(file: file, windows: [window], diagnostics: nil, expecting: changes.map(\.identity),
                                            streamFrom: from)
            outcomes.append(try changes.map { try edit.apply($0) })
            try edit.commit()
            edits.append(edit)
        }
        return (outcomes, edits)
    }

    static func scratch() throws -> String {
        try WriteOrderTests.scratch("streamed-edit")
    }

    /// A new event: the streamed edit held the first line and the tail (a few hundred
    /// bytes of a MB), the edit read whole all of it; the two files are the same bytes.
    @Test func aNewEventIsWrittenAsTheEditOfTheWholeFile() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let (outcomes, edits) = try Self.both([try CarriedTextTests.request(1)], files)
        #expect(outcomes == [[.added], [.added]])
        #expect(edits[0].streamed && !edits[1].streamed)
        #expect(edits[0].heldBytes < 1024, "streamed: \(edits[0].heldBytes) bytes held")
        #expect(edits[1].heldBytes == files.bytes.count)
        let written = try Data(contentsOf: URL(fileURLWithPath: files.streamed))
        let whole = try Data(contentsOf: URL(fileURLWithPath: files.whole))
        #expect(written.count > files.bytes.count)
        #expect(written == whole)
    }

    /// The organizer's update of an event in the middle of the file: its block is found by
    /// the scan, read alone and replaced; the rest copied. Both files are the same bytes,
    /// with the update in them once.
    @Test func anUpdateInTheMiddleIsWrittenAsTheEditOfTheWholeFile() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let (outcomes, edits) = try Self.both([try Self.update()], files)
        #expect(outcomes[0] == outcomes[1] && outcomes[0] != [.added] && outcomes[0] != [.unchanged], "\(outcomes)")
        #expect(edits[0].heldBytes < 2048, "streamed: \(edits[0].heldBytes) bytes held")
        let written = try Data(contentsOf: URL(fileURLWithPath: files.streamed))
        #expect(written == (try Data(contentsOf: URL(fileURLWithPath: files.whole))))
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.components(separatedBy: "UID:mid@t\r\n").count == 2 && text.contains("SUMMARY:Planning moved\r\n"))
    }

    /// Three new invitations by mail in one run (`merge`): each is put in before the last
    /// `END:VCALENDAR` after the one before, as in the file read whole, without the file
    /// being read whole for the second (it waits with the new events).
    @Test func newInvitationsInOneRunAreNotReadWhole() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let changes: [CalendarChange] = try (5..<8).map(CarriedTextTests.request)
        let (outcomes, edits) = try Self.both(changes, files)
        #expect(outcomes == [[.added, .added, .added], [.added, .added, .added]])
        #expect(edits[0].heldBytes < 1024, "streamed: \(edits[0].heldBytes) bytes held")
        let written = try Data(contentsOf: URL(fileURLWithPath: files.streamed))
        #expect(written == (try Data(contentsOf: URL(fileURLWithPath: files.whole))))
    }

    /// A new invitation and its organizer's update in one run: the update must see the
    /// invitation in place, so the file is read whole for it; the bytes are the same.
    @Test func anUpdateOfAWaitingInvitationSeesIt() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let first = try CarriedTextTests.request(6)
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//org//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:new-6@example.org\r\n"
            + "DTSTAMP:20240102T000000Z\r\nSEQUENCE:1\r\nDTSTART:20240207T120000Z\r\nDTEND:20240207T130000Z\r\n"
            + "SUMMARY:New 6, later\r\nORGANIZER:mailto:o@example.org\r\nATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:me@example.com\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n"
        let data = Data(text.utf8)
        let message = try ITIPMessage(data, uid: "new-6@example.org", zones: try ICalReader.read(data, file: "m.ics").zones, file: "m.ics")
        var second = ITIPChange(message: message, cancel: false, me: ["me@example.com"])
        second.partstat = "ACCEPTED"
        let (outcomes, edits) = try Self.both([first, second], files)
        #expect(outcomes[0] == outcomes[1] && outcomes[0].first == .added && outcomes[0].last != .added, "\(outcomes)")
        #expect(edits[0].streamed)
        let written = try Data(contentsOf: URL(fileURLWithPath: files.streamed))
        #expect(written == (try Data(contentsOf: URL(fileURLWithPath: files.whole))))
        #expect(String(decoding: written, as: UTF8.self).components(separatedBy: "UID:new-6@example.org\r\n").count == 2)
    }

    /// The same invitation again: "already there" is decided from the block the scan found,
    /// nothing is written (the file keeps its inode), nothing else of the file is held.
    @Test func alreadyThereIsDecidedFromTheBlocksAlone() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let change = try CarriedTextTests.request(2)
        _ = try Self.both([change], files)
        let before = try #require(FileStatus.of(files.streamed, followSymlinks: false))
        let edit = try CalendarFileEdit(file: files.streamed, windows: [Self.window], diagnostics: nil, expecting: [change.identity],
                                        streamFrom: 0)
        #expect(try edit.apply(change) == .unchanged)
        #expect(!edit.hasChanges)
        #expect(edit.heldBytes < 2048, "streamed: \(edit.heldBytes) bytes held")
        #expect(FileStatus.of(files.streamed, followSymlinks: false)?.sameVersion(as: before) == true)
    }

    /// A question the scan was not asked (an event no change is about) reads the file
    /// whole first, and is answered as in a file read whole; the write is the same.
    @Test func anUnforeseenQuestionReadsTheFileWhole() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let edit = try CalendarFileEdit(file: files.streamed, windows: [Self.window], diagnostics: nil, streamFrom: 0)
        #expect(edit.heldBytes < 1024)
        #expect(edit.stores(uid: "e3999@t") && !edit.stores(uid: "e4000@t"))
        #expect(edit.heldBytes == files.bytes.count)
        _ = try edit.apply(try CarriedTextTests.request(3))
        try edit.commit()
        let whole = try CalendarFileEdit(file: files.whole, windows: [Self.window], diagnostics: nil, streamFrom: .max)
        _ = try whole.apply(try CarriedTextTests.request(3))
        try whole.commit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.streamed)) == (try Data(contentsOf: URL(fileURLWithPath: files.whole))))
    }

    /// Another program cuts the file short in place after the scan (the copy would run out
    /// of bytes): a change to read again, and the file is left as the other program left it.
    @Test func aFileCutShortAfterTheScanIsAChange() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let change = try CarriedTextTests.request(4)
        let edit = try CalendarFileEdit(file: files.streamed, windows: [Self.window], diagnostics: nil, expecting: [change.identity],
                                        streamFrom: 0)
        #expect(try edit.apply(change) == .added)
        let half = files.bytes.count / 2
        #expect(truncate(files.streamed, off_t(half)) == 0)
        #expect(throws: AtomicFile.Changed.self) { try edit.commit() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.streamed)) == files.bytes.prefix(half))
    }

    /// Another program rewrites one letter of the file in place and puts its times back (an
    /// `rsync --inplace -t`): the file's identity is what was read, only its bytes differ.
    /// The checksum taken while scanning catches it: a change to read again, and the
    /// file is left as the other program wrote it.
    @Test func aRewriteInPlaceThatKeepsTheTimesIsAChange() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try Self.copies(in: dir)
        let status = try #require(FileStatus.of(files.streamed, followSymlinks: false))
        var times = stat()
        #expect(stat(files.streamed, &times) == 0)
        let change = try CarriedTextTests.request(4)
        let edit = try CalendarFileEdit(file: files.streamed, windows: [Self.window], diagnostics: nil, expecting: [change.identity],
                                        streamFrom: 0)
        #expect(try edit.apply(change) == .added)
        #expect(edit.heldBytes < 1024, "the file is not in memory: only the checksum can tell")
        let at = try #require(files.bytes.range(of: Data("SUMMARY:Event 1000 ".utf8))).lowerBound + 8
        var theirs = files.bytes
        theirs[at] = UInt8(ascii: "F")
        let handle = try #require(FileHandle(forUpdatingAtPath: files.streamed))
        try handle.seek(toOffset: UInt64(at))
        try handle.write(contentsOf: Data([UInt8(ascii: "F")]))
        try handle.close()
        let kept = [times.st_atim, times.st_mtim]
        #expect(kept.withUnsafeBufferPointer { utimensat(AT_FDCWD, files.streamed, $0.baseAddress, 0) } == 0)
        #expect(FileStatus.of(files.streamed, followSymlinks: false)?.sameVersion(as: status) == true,
                "the identity alone cannot tell")
        #expect(throws: AtomicFile.Changed.self) { try edit.commit() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: files.streamed)) == theirs)
    }
}
