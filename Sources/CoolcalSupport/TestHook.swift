import Foundation

/// Test hook: a deterministic crash point for the end-to-end durability test.
///
/// Inert unless `COOLCAL_TEST_PAUSE_AT` names the point reached: then coolcal says
/// `coolcal: test hook: paused at POINT` on standard error and sleeps for a minute,
/// so the test can `kill -9` it exactly there (DurabilityTests, MaildirCrashTests).
/// Not for users, and not in the man page: it only ever makes coolcal slower.
package enum TestHook {
    /// The points:
    /// - "after-temp-write" (AtomicFile: the temporary file is written in full, not yet
    ///   fsynced nor renamed over the calendar);
    /// - "merge-after-listing" (merge: the spool's invitations are listed, the run lock
    ///   held, nothing answered yet);
    /// - "merge-after-write" (merge: the calendar is written, nothing recorded in the
    ///   state yet);
    /// - "merge-before-remember" (merge: the answers are recorded in the state, the
    ///   invitations not yet finished in the spool: a Maildir's messages not remembered
    ///   nor marked, a plain spool's files not moved).
    /// - "accept-after-write", "decline-after-write" (accept, decline: the calendar is
    ///   written, the answer not yet recorded in the state).
    /// - "process-after-claim" (process, holding the run lock: messages other deliveries
    ///   handed over are claimed, not yet answered; BurstTests kills it there).
    /// The merge points are for MaildirCrashTests and MaildirTests; with the answering
    /// ones and "merge-after-write", UnrecordedTests breaks the state while coolcal waits.
    ///
    /// With `COOLCAL_TEST_RESUME` naming a file, the pause makes `FILE.paused` and ends as
    /// soon as that file exists (the test has done its part), not after the minute.
    package static func pause(at point: String) {
        guard let wanted = getenv("COOLCAL_TEST_PAUSE_AT"), String(cString: wanted) == point else { return }
        let line = "coolcal: test hook: paused at \(point)\n"
        FileHandle.standardError.write(Data(line.utf8))
        guard let resume = getenv("COOLCAL_TEST_RESUME").map({ String(cString: $0) }) else {
            sleep(60)
            return
        }
        // Said in a file too, so the test waits for the pause itself, not for a sign of
        // the write before it (a fault landing in between would miss the point).
        if let fd = try? SystemCalls.open(resume + ".paused", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600) { try? SystemCalls.close(fd) }
        var waited = 0
        while waited < 3_000, (try? SystemCalls.access(resume, F_OK)) == nil {
            usleep(20_000)
            waited += 1
        }
    }

    /// With `COOLCAL_TEST_TRACE` naming a file, each `rename` the funnel makes is appended
    /// to it as a line `rename FROM -> TO` (`O_APPEND`: one line per call even from several
    /// processes), so a test can count the calendar writes of separate processes
    /// (BurstTests: a burst of deliveries written once or twice, not once each).
    package static func traceRename(_ from: String, _ to: String) {
        guard let file = traceFile else { return }
        guard let fd = try? SystemCalls.open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) else { return }
        let line = Data("rename \(from) -> \(to)\n".utf8)
        line.withUnsafeBytes { bytes in _ = try? SystemCalls.writeAll(fd, bytes, path: file) }
        try? SystemCalls.close(fd, path: file)
    }

    /// With `COOLCAL_TEST_STREAM_FROM` set to a number of bytes, calendar files from that
    /// size on are edited streamed (`CalendarFileEdit.streamFrom`, 8 MiB otherwise): the
    /// write tests run again with every file streamed (`make test`'s streamed pass).
    package static let streamFrom: Int? = getenv("COOLCAL_TEST_STREAM_FROM").flatMap { Int(String(cString: $0)) }

    private static let traceFile: String? = getenv("COOLCAL_TEST_TRACE").map { String(cString: $0) }
}
