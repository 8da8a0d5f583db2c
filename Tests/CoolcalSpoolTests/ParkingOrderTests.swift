import Foundation
import Testing
@testable import CoolcalSupport
@testable import CoolcalSpool

/// A parked message survives a crash the moment `park` returns (issue #47, item 2: the
/// parking code's fsyncs could be removed with no test failing). Read from the funnel's
/// trace: the bytes go to a temporary file beside the message in `new/` (`AtomicFile`'s),
/// are fsynced and closed, renamed to the message's name, and `new/` is fsynced after the
/// rename; `names()` never lists the temporary file.
@Suite struct ParkingOrderTests {
    @Test func aParkedMessageIsFsyncedThenRenamedThenItsDirectorySynced() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-parking-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let place = ParkedMessages(directory: root + "/parked")
        let message = Data("From: a@example.org\r\nMessage-ID: <p1@example.org>\r\n\r\nhello\r\n".utf8)
        var name = ""
        let calls = try SystemCalls.recording { name = try place.park(message) }
        let new = root + "/parked/new"
        let final = new + "/" + name
        func isTemp(_ path: String?) -> Bool { path.map { $0.hasPrefix(new + "/." + name + ".coolcal-") && $0.hasSuffix(".tmp") } ?? false }
        var steps: [String] = []
        for call in calls {
            var step: String?
            if isTemp(call.path) && ["open", "write", "fsync", "close"].contains(call.name) {
                step = call.name + " temp"
            } else if isTemp(call.path) && call.name == "rename" {
                #expect(call.target == final)
                step = "rename temp"
            } else if call.path == new && call.name == "fsync" {
                step = "fsync new/"
            }
            if let step, steps.last != step { steps.append(step) }
        }
        #expect(steps == ["open temp", "write temp", "fsync temp", "close temp", "rename temp", "fsync new/"], "\(steps)")
        #expect(FileStatus.of(final)?.permissions == 0o600)
        #expect(FileManager.default.contents(atPath: final) == message)
        #expect(place.names() == [name])
    }

    /// A temporary file a killed park left in `new/` is never listed as a parked message.
    @Test func aLeftoverTemporaryFileIsNotAParkedMessage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-parking-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let place = ParkedMessages(directory: root + "/parked")
        let message = Data("From: a@example.org\r\nMessage-ID: <p2@example.org>\r\n\r\nhello\r\n".utf8)
        let name = try place.park(message, now: Date(timeIntervalSince1970: 1_700_000_000))
        let leftover = root + "/parked/new/.1700000001.0123456789abcdef0123456789abcdef.coolcal.coolcal-4242-0.tmp"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8)))
        #expect(place.names() == [name])
    }
}
