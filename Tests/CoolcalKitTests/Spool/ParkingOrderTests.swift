import Foundation
import Testing
@testable import CoolcalSupport
@testable import CoolcalSpool

/// A parked message survives a crash the moment `park` returns (issue #47, item 2: the
/// parking code's fsyncs could be removed with no test failing). Read from the funnel's
/// trace: the bytes go to `tmp/`, are fsynced and closed, renamed into `new/`, and
/// `new/` is fsynced after the rename.
@Suite struct ParkingOrderTests {
    @Test func aParkedMessageIsFsyncedThenRenamedThenItsDirectorySynced() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-parking-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let place = ParkedMessages(directory: root + "/parked")
        let message = Data("From: a@example.org\r\nMessage-ID: <p1@example.org>\r\n\r\nhello\r\n".utf8)
        var name = ""
        let calls = try SystemCalls.recording { name = try place.park(message) }
        let temp = root + "/parked/tmp/" + name
        let final = root + "/parked/new/" + name
        var steps: [String] = []
        for call in calls {
            var step: String?
            if call.path == temp && ["open", "write", "fsync", "close"].contains(call.name) {
                step = call.name + " tmp"
            } else if call.path == temp && call.name == "rename" {
                #expect(call.target == final)
                step = "rename tmp"
            } else if call.path == root + "/parked/new" && call.name == "fsync" {
                step = "fsync new/"
            }
            if let step, steps.last != step { steps.append(step) }
        }
        #expect(steps == ["open tmp", "write tmp", "fsync tmp", "close tmp", "rename tmp", "fsync new/"], "\(steps)")
        #expect(FileStatus.of(final)?.permissions == 0o600)
        #expect(FileManager.default.contents(atPath: final) == message)
    }
}
