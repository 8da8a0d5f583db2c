import Foundation
import Testing

/// Issue #46 item 6: under cron (`merge -q`) a mail reply the sendmail could not take yet
/// is not news for its first day: `-q` says nothing, without `-q` a warning says it.
@Suite struct MergeQuietMailTests {
    @Test func aReplyQueuedTodayIsSilentUnderQuiet() throws {
        for quiet in [true, false] {
            let f = try MailAnswerTests().files("")
            let spool = f.home.appendingPathComponent("spool").path
            try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
            let future = MailAnswerTests.invitation().replacingOccurrences(of: "20260822T", with: "20360822T")
            try Data(future.utf8).write(to: URL(fileURLWithPath: spool + "/a.ics"))
            let down = f.home.appendingPathComponent("sendmail-down").path
            try Data("#!/bin/sh\ncat >/dev/null\necho 'mail server unavailable' >&2\nexit 69\n".utf8).write(to: URL(fileURLWithPath: down))
            chmod(down, 0o755)
            var env = f.env
            env["COOLCAL_SENDMAIL"] = down
            let run = try Binary.run(["merge"] + (quiet ? ["-q"] : []) + ["--reply", "--accept-from", "anyone", "--state", f.state,
                                      "--spool", spool, f.calendar], env: env)
            #expect(run.status == 0, "\(run.stderr)")
            if quiet {
                #expect(run.stdout == "" && run.stderr == "", "\(run.stdout)\(run.stderr)")
            } else {
                #expect(run.stdout.hasPrefix("accepted  a.ics  Project kickoff"), "\(run.stdout)")
                #expect(run.stderr.contains("coolcal: warning: 1 mail reply queued"), "\(run.stderr)")
            }
        }
    }
}
