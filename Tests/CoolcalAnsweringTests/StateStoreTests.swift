import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalInvite
@testable import CoolcalState
@testable import CoolcalAnswering
@testable import CoolcalTestSupport

/// The permission bits of a file.
func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

@Suite struct StateStoreTests {
    @Test func createsPrivateDirectoryAndFiles() throws {
        let parent = stateDirectory()
        let dir = parent + "/nested/coolcal"
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let store = try StateStore(directory: dir)
        try store.badge.add(1)
        #expect(try mode(dir) == 0o700)
        #expect(try mode(store.databasePath) == 0o600)
        // WAL files exist while a connection is open; they must not be readable by others.
        for suffix in ["-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: store.databasePath + suffix))
            #expect(try mode(store.databasePath + suffix) == 0o600)
        }
    }

    @Test func tightensALooseExistingDatabase() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + StateStore.fileName
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        _ = try StateStore(directory: dir)
        #expect(try mode(path) == 0o600)
    }

    @Test func refusesAFileAsDirectoryAndANewerSchema() throws {
        let file = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(throws: StateError(kind: .cannotCreate, path: file, message: "not a directory")) {
            try StateStore(directory: file)
        }

        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try StateStore(directory: dir).database.execute("PRAGMA user_version = 99")
        let error = try #require(throws: StateError.self) { try StateStore(directory: dir) }
        #expect(error.kind == .cannotCreate)
        #expect(error.description.contains("newer coolcal"))
    }

    @Test func badgeArithmetic() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        #expect(try store.badge.count == 0)
        #expect(try store.badge.add(3) == 3)
        #expect(try store.badge.add(2) == 5)
        #expect(try StateStore(directory: dir).badge.count == 5)  // persisted, seen by another connection
        try store.badge.reset()
        #expect(try store.badge.count == 0)
        #expect(try store.badge.add(-4) == 0)  // never negative
        #expect(try store.badge.add(7) == 7)
        #expect(try store.badge.add(Int.max) == Int.max)  // saturates instead of overflowing
        #expect(try store.badge.add(1) == Int.max)
    }

    @Test func inboxIsNewestFirstWithReadFlags() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let day = Invite(id: .uid("day@x"), title: "", start: .date(CivilDateTime(year: 2026, month: 3, day: 2)),
                         end: .date(CivilDateTime(year: 2026, month: 3, day: 3)), source: "t")
        #expect(try store.inbox.record(stateInvite(.number(1), "First"), payload: "{\"id\":1}", at: Date(timeIntervalSince1970: 100)))
        #expect(try store.inbox.record(stateInvite(.number(2), "Second"), payload: "{\"id\":2}", at: Date(timeIntervalSince1970: 200)))
        #expect(try store.inbox.record(day, payload: "BEGIN:VCALENDAR", at: Date(timeIntervalSince1970: 150)))
        #expect(try store.inbox.entries().map(\.id) == ["2", "day@x", "1"])
        #expect(try store.inbox.entries().allSatisfy { !$0.read })

        let allDay = try #require(try store.inbox.entry(id: "day@x"))
        #expect(allDay.allDay && allDay.title == .event("") && allDay.start == day.start && allDay.end == day.end)
        #expect(allDay.payload == "BEGIN:VCALENDAR")
        #expect(try store.inbox.entry(id: "1")?.start == stateInvite(.number(1)).start)
        #expect(try store.inbox.entry(id: "nope") == nil)

        #expect(try store.inbox.markRead(id: "1"))
        #expect(try store.inbox.markRead(id: "1"))  // already read: still found
        #expect(try !store.inbox.markRead(id: "nope"))
        #expect(try store.inbox.entries().map(\.read) == [false, false, true])

        // The same payload again is not news; a changed one is, and moves to the top unread.
        #expect(try !store.inbox.record(stateInvite(.number(1), "First"), payload: "{\"id\":1}", at: Date(timeIntervalSince1970: 300)))
        #expect(try store.inbox.entry(id: "1")?.read == true)
        #expect(try !store.inbox.record(stateInvite(.number(1), "Moved", hour: 15), payload: "{\"id\":1,\"v\":2}",
                                            at: Date(timeIntervalSince1970: 400)))
        let moved = try #require(try store.inbox.entries().first)
        #expect(moved.id == "1" && moved.title == .event("Moved") && !moved.read && moved.receivedAt.timeIntervalSince1970 == 400)
        #expect(moved.start == stateInvite(.number(1), hour: 15).start)
        #expect(try store.inbox.entries().count == 3)
    }

    @Test func answersAreQueuedWithStableKeys() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let server = URL(string: "http://127.0.0.1:9")
        let invite = stateInvite(.number(12), "Review", hour: 9)

        let first = try store.recordAnswer(.accepted, for: invite, comment: nil, at: Date(timeIntervalSince1970: 10), queueFor: server)
        #expect(first.isNew && first.queued && first.key.hasPrefix("coolcal-accept-12-"))
        let again = try store.recordAnswer(.accepted, for: invite, comment: nil, at: Date(timeIntervalSince1970: 20), queueFor: server)
        #expect(again == RecordedAnswer(key: first.key, isNew: false, queued: true))
        #expect(try store.outbox.entries().count == 1)

        // Changing one's mind is a new answer, queued after the first.
        let decline = try store.recordAnswer(.declined, for: invite, comment: "sorry", at: Date(timeIntervalSince1970: 30), queueFor: server)
        #expect(decline.isNew && decline.key != first.key)
        let outbox = try store.outbox.entries()
        #expect(outbox.map(\.key) == [first.key, decline.key])
        #expect(outbox.map(\.answer) == [.accepted, .declined])
        #expect(outbox.map(\.body) == ["{}", #"{"comment":"sorry"}"#])
        #expect(outbox.allSatisfy { $0.state == .queued && $0.attempts == 0 && $0.inviteID == "12" })

        // Without a server the answer is kept locally and nothing is queued.
        let local = try store.recordAnswer(.comment, for: stateInvite(.uid("u@x"), "Early", hour: 1), comment: "hi",
                                           at: Date(timeIntervalSince1970: 40), queueFor: nil)
        #expect(local.isNew && !local.queued)
        #expect(try store.outbox.entries().count == 2)

        let responses = try store.responses()
        #expect(responses.map(\.inviteID) == ["u@x", "12", "12"])  // by start, then when answered
        #expect(responses.map(\.answer) == [.comment, .accepted, .declined])
        #expect(responses.map(\.delivery) == [.local, .queued, .queued])
        #expect(responses[2].comment == "sorry" && responses[1].comment == nil && responses[1].title == "Review")
    }

    @Test func deliveryFailureAndRequeue() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        let server = URL(string: "http://127.0.0.1:9")
        let a = try store.recordAnswer(.accepted, for: stateInvite(.number(1)), comment: nil, at: Date(), queueFor: server)
        let b = try store.recordAnswer(.declined, for: stateInvite(.number(2)), comment: nil, at: Date(), queueFor: server)

        #expect(try store.outbox.recordAttempt(a.key, error: "connection refused"))
        #expect(try store.outbox.recordAttempt(a.key, error: "timed out"))
        #expect(try store.outbox.markFailed(b.key, reason: "HTTP 404: gone"))
        var entries = try store.outbox.entries()
        #expect(entries.map(\.attempts) == [2, 1])
        #expect(entries.map(\.state) == [.queued, .failed])
        #expect(entries.map(\.lastError) == ["timed out", "HTTP 404: gone"])

        #expect(try store.outbox.markDelivered(a.key))
        #expect(try !store.outbox.markDelivered(a.key))
        #expect(try store.outbox.entries().map(\.key) == [b.key])
        // Repeating a delivered answer sends nothing; repeating a refused one retries it.
        #expect(try store.recordAnswer(.accepted, for: stateInvite(.number(1)), comment: nil, at: Date(), queueFor: server).queued == false)
        #expect(try store.recordAnswer(.declined, for: stateInvite(.number(2)), comment: nil, at: Date(), queueFor: server).queued)
        entries = try store.outbox.entries()
        #expect(entries.map(\.key) == [b.key] && entries[0].state == .queued)
        #expect(try store.responses().map(\.delivery) == [.delivered, .queued])
    }

    @Test func answerAndOutboxRowAreOneTransaction() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try StateStore(directory: dir)
        // A real failure inside the transaction, after the response row is written.
        try store.database.execute("CREATE TEMP TRIGGER fail BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
        let error = try #require(throws: SQLiteError.self) {
            try store.recordAnswer(.accepted, for: stateInvite(.number(5)), comment: nil, at: Date(),
                                   queueFor: URL(string: "http://127.0.0.1:9"))
        }
        #expect(error.message == "disk on fire" && error.file == store.databasePath && error.sql != nil)
        #expect(try store.responses().isEmpty)
        #expect(try store.outbox.entries().isEmpty)

        // Any error thrown by the body rolls back what it wrote.
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try store.database.transaction {
                try store.database.execute("UPDATE badge SET count = 42")
                throw Boom()
            }
        }
        #expect(try store.badge.count == 0)
    }

    @Test func busyIsRetriedAndThenReportedWithoutJargon() throws {
        let dir = stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let holder = try StateStore(directory: dir)
        try holder.database.execute("BEGIN IMMEDIATE")
        let impatient = try StateStore(directory: dir, busyTimeout: 0.05, retryWindow: 0.3)
        let started = Date()
        let error = try #require(throws: SQLiteError.self) { try impatient.badge.add(1) }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(error.kind == .busy && error.file == impatient.databasePath)
        #expect(!error.description.contains("database is locked"))
        #expect(error.description.hasPrefix(impatient.databasePath + ": "))
        try holder.database.execute("ROLLBACK")

        // A lock held longer than the busy timeout is outlasted by the retries.
        try holder.database.execute("BEGIN IMMEDIATE")
        let done = DispatchSemaphore(value: 0)
        let errors = ThreadErrors()
        Thread {
            do { _ = try StateStore(directory: dir, busyTimeout: 0.05, retryWindow: 10).badge.add(2) }
            catch { errors.add(String(reflecting: error)) }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.4)  // far past busyTimeout: only the retry loop can succeed
        try holder.database.execute("COMMIT")
        #expect(done.wait(timeout: .now() + 15) == .success)
        #expect(errors.all.isEmpty)
        #expect(try holder.badge.count == 2)
    }

    @Test func eightConnectionsWritingAtOnceLoseNothing() throws {
        let dir = stateDirectory()  // created by the racing stores themselves
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let errors = ThreadErrors()
        let group = DispatchGroup()
        let server = URL(string: "http://127.0.0.1:9")
        for worker in 0..<8 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let store = try StateStore(directory: dir)
                    for row in 0..<50 {
                        let invite = stateInvite(.uid("w\(worker)-r\(row)"), "T\(row)", hour: Int64(row))
                        try store.inbox.record(invite, payload: "{}", at: Date())
                        try store.badge.add(1)
                        if row % 5 == 0 {
                            try store.recordAnswer(.accepted, for: invite, comment: nil, at: Date(), queueFor: server)
                        }
                    }
                } catch {
                    errors.add(String(reflecting: error))
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(errors.all.isEmpty)
        let store = try StateStore(directory: dir)
        #expect(try Set(store.inbox.entries().map(\.id)).count == 400)
        #expect(try store.badge.count == 400)  // no lost update between read and write
        #expect(try store.responses().count == 80)
        #expect(try Set(store.outbox.entries().map(\.key)).count == 80)
    }
}
