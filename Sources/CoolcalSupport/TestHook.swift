import Foundation

/// Test hook: a deterministic crash point for the end-to-end durability test.
///
/// Inert unless `COOLCAL_TEST_PAUSE_AT` names the point reached: then coolcal says
/// `coolcal: test hook: paused at POINT` on standard error and sleeps for a minute,
/// so the test can `kill -9` it exactly there (DurabilityTests). Not for users, and
/// not in the man page: it only ever makes coolcal slower.
package enum TestHook {
    /// The points: "after-temp-write" (AtomicFile: the temporary file is written in
    /// full, not yet fsynced nor renamed over the calendar).
    package static func pause(at point: String) {
        guard let wanted = getenv("COOLCAL_TEST_PAUSE_AT"), String(cString: wanted) == point else { return }
        let line = "coolcal: test hook: paused at \(point)\n"
        FileHandle.standardError.write(Data(line.utf8))
        sleep(60)
    }
}
