import Foundation
import Testing
import CoolcalState
@testable import CLITests

/// Issue #29: mail replies through an unlucky sendmail. A failure that may pass (exit 69,
/// 74, 75, 76, a signal) stays queued and is tried again after a backoff, for 72 hours;
/// any other fails at once; `outbox retry` queues failed ones again; a run killed while
/// the sendmail held the message sends it again with the same Message-ID.
@Suite(.serialized) struct OutboxRetryTests {
    let mail = MailAnswerTests()
    /// `MailAnswerTests.invitation()`'s UID, the outbox entry's invitation id.
    static let inviteID = "kickoff-9@example.org"

    /// A sendmail script that keeps each message it is given as `N.eml` in a directory of
    /// its own (N counts its runs), then runs `then` (by default: exits 0).
    struct LoggingSendmail {
        let path: String
        let directory: String

        init(_ f: MailAnswerTests.Files, _ name: String, then: String = "exit 0") throws {
            directory = f.home.appendingPathComponent(name).path
            path = directory + ".sh"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let script = "#!/bin/sh\nn=$(ls '\(directory)' | grep -c '\\.eml$')\ncat > '\(directory)'/$((n + 1)).eml\n\(then)\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }

        /// The messages it was given, in order.
        func messages() throws -> [String] {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".eml") }
                .sorted { Int($0.dropLast(4)) ?? 0 < Int($1.dropLast(4)) ?? 0 }
            return try names.map { try String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
        }
    }

    /// A message's Message-ID, without its angle brackets.
    static func messageID(_ message: String) -> String? {
        for line in message.split(separator: "\n") {
            if line.isEmpty || line == "\r" { break }
            let lower = line.lowercased()
            if lower.hasPrefix("message-id:") {
                return line.dropFirst("message-id:".count).trimmingCharacters(in: CharacterSet(charactersIn: " <>\r"))
            }
        }
        return nil
    }

    func outbox(_ f: MailAnswerTests.Files, _ env: [String: String]) throws -> [[String: Any]] {
        try MailSendTests().outbox(f, env)
    }

    /// Seconds from now to an entry's `next_attempt_at`.
    static func wait(_ entry: [String: Any]) throws -> TimeInterval {
        let text = try #require(entry["next_attempt_at"] as? String)
        return try #require(ISO8601DateFormatter().date(from: text)).timeIntervalSinceNow
    }

    /// Changes the state as time passing would: `assignments` on every outbox row.
    static func age(_ f: MailAnswerTests.Files, _ assignments: String) throws {
        try StateStore(directory: f.state).database.execute("UPDATE outbox SET \(assignments)")
    }

    static let transient: [Int32] = [69, 74, 75, 76]
    static let permanent: [Int32] = [64, 65, 67, 68, 77, 78]

    @Test(arguments: transient + permanent)
    func aSendmailExitStatusDecidesRetryOrFail(status: Int32) throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let sendmail = try LoggingSendmail(f, "sendmail", then: "exit \(status)")
        let env = f.env.merging(["COOLCAL_SENDMAIL": sendmail.path]) { $1 }
        let send = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        let entry = try #require(try outbox(f, env).first)
        #expect(try sendmail.messages().count == 1)
        if Self.transient.contains(status) {
            #expect(send.status == 75, "\(send.stderr)")
            #expect(send.stderr.contains("exit \(status) ("), "\(send.stderr)")
            #expect(send.stderr.hasSuffix("the answer is queued, 'coolcal outbox flush' retries\n"), "\(send.stderr)")
            #expect(entry["state"] as? String == "queued")
            // The first retry is due 5 minutes after the failure.
            let wait = try Self.wait(entry)
            #expect(wait > 240 && wait <= 301, "next attempt in \(wait) s")
        } else {
            #expect(send.status == 74, "\(send.stderr)")
            #expect(send.stderr.hasSuffix("exit \(status); not sent (see 'coolcal outbox')\n"), "\(send.stderr)")
            #expect(entry["state"] as? String == "failed")
            #expect(entry["next_attempt_at"] is NSNull)
        }
    }

    @Test func aSendmailKilledByASignalIsRetried() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let sendmail = try LoggingSendmail(f, "sendmail", then: "kill -TERM $$")
        let env = f.env.merging(["COOLCAL_SENDMAIL": sendmail.path]) { $1 }
        let send = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(send.status == 75)
        #expect(send.stderr.contains("stopped by signal 15"), "\(send.stderr)")
        #expect(try outbox(f, env).map { $0["state"] as? String } == ["queued"])
    }

    /// Backoff between runs, giving up after 72 hours, `outbox retry`, and the same
    /// message (one Message-ID) on every attempt.
    @Test func backoffThenFailedAfter72HoursThenRetried() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let down = try LoggingSendmail(f, "down", then: "echo 'sendmail: mail server unavailable' >&2; exit 69")
        let env = f.env.merging(["COOLCAL_SENDMAIL": down.path]) { $1 }
        let accept = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stderr.contains("1 mail reply queued (\(down.path): exit 69 (service unavailable): sendmail: mail server unavailable)"),
                "\(accept.stderr)")
        let first = try #require(try outbox(f, env).first)
        let messageID = try #require(first["message_id"] as? String)
        #expect(Self.messageID(try #require(try down.messages().first)) == messageID)

        // A run within the 5 minutes does not run the sendmail.
        _ = try Binary.run(["responses", "--state", f.state], env: env)
        #expect(try down.messages().count == 1)
        #expect(try outbox(f, env).map { $0["attempts"] as? Int } == [1])

        // Once they passed, the next run tries: the wait doubles.
        try Self.age(f, "next_attempt_at = 0")
        _ = try Binary.run(["responses", "--state", f.state], env: env)
        #expect(try down.messages().count == 2)
        let second = try #require(try outbox(f, env).first)
        #expect(second["attempts"] as? Int == 2)
        let wait = try Self.wait(second)
        #expect(wait > 540 && wait <= 601, "next attempt in \(wait) s")

        // 72 hours after the first failure, the next failure is the last.
        try Self.age(f, "next_attempt_at = 0, retrying_since = retrying_since - 73 * 3600")
        let last = try Binary.run(["responses", "--state", f.state], env: env)
        #expect(last.stderr.contains("1 mail reply failed and will not be retried by itself; 'coolcal outbox' says why, 'coolcal outbox retry' queues it again"),
                "\(last.stderr)")
        #expect(try down.messages().count == 3)
        let failed = try #require(try outbox(f, env).first)
        #expect(failed["state"] as? String == "failed")
        #expect((failed["last_error"] as? String)?.hasSuffix("; still failing after 72 hours") == true, "\(failed)")
        let listing = try Binary.run(["outbox", "--state", f.state], env: env)
        #expect(listing.stdout.hasPrefix("failed  reply \(Self.inviteID)  attempts 3  by mail  last: "), "\(listing.stdout)")
        #expect(listing.stdout.hasSuffix("\n1 failed: not sent again by themselves; 'coolcal outbox retry' queues it again\n"), "\(listing.stdout)")

        // A failed entry is not sent by flush, and does not make it fail (cron would mail forever).
        let flush = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stdout == "mailed 0, failed 1 (coolcal outbox retry), still queued 0\n")
        #expect(try down.messages().count == 3)

        // `outbox retry` names an entry by key or invitation id; a name that has none is 66.
        let unknown = try Binary.run(["outbox", "retry", "nothing@example.org", "--state", f.state], env: env)
        #expect(unknown.status == 66)
        #expect(unknown.stderr == "coolcal: error: no failed entry in the outbox has the key or invitation id 'nothing@example.org' (see 'coolcal outbox')\n")
        let up = try LoggingSendmail(f, "up")
        let upEnv = f.env.merging(["COOLCAL_SENDMAIL": up.path]) { $1 }
        let retry = try Binary.run(["outbox", "retry", Self.inviteID, "--state", f.state], env: upEnv)
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(retry.stdout == "queued again 1; the next run sends it, or 'coolcal outbox flush' now\n")
        let requeued = try #require(try outbox(f, upEnv).first)
        #expect(requeued["state"] as? String == "queued")
        #expect(requeued["next_attempt_at"] is NSNull)
        #expect(try up.messages().isEmpty)

        // The next run that delivers the outbox sends it: the same message as every attempt.
        _ = try Binary.run(["responses", "--state", f.state], env: upEnv)
        let sent = try up.messages()
        #expect(sent.count == 1)
        #expect(sent == [try down.messages()[0]])
        #expect(try outbox(f, upEnv).isEmpty)
        let nothing = try Binary.run(["outbox", "retry", "--state", f.state], env: upEnv)
        #expect(nothing.stdout == "nothing failed in the outbox\n")
    }

    /// msmtp against a real SMTP server that drops the connection after DATA (msmtp exits
    /// 76): the reply stays queued, and a later flush delivers it exactly once.
    @Test func aConnectionDroppedAfterDataIsDeliveredOnceLater() throws {
        let sink = try SMTPSink(drop: 1)
        let f = try mail.files(MailAnswerTests.invitation())
        let env = try MailSendTests().msmtp(f, port: sink.port)
        let accept = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stderr.contains("exit 76 (remote protocol error)"), "\(accept.stderr)")
        #expect(sink.dropped == 1)
        #expect(try sink.messages().isEmpty)
        let queued = try #require(try outbox(f, env).first)
        #expect(queued["state"] as? String == "queued")
        let messageID = try #require(queued["message_id"] as? String)

        let flush = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stdout == "mailed 1, failed 0, still queued 0\n")
        let again = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "mailed 0, failed 0, still queued 0\n")
        _ = try Binary.run(["accept", "--reply", "--state", f.state, f.invite, f.calendar], env: env)
        let received = try sink.messages()
        #expect(received.count == 1)
        #expect(received.first.flatMap(Self.messageID) == messageID)
        #expect(try outbox(f, env).isEmpty)
    }

    /// kill -9 while the sendmail holds the message (after "sending" was recorded, before
    /// "sent"): the next run sends it once more, byte for byte, with the same Message-ID.
    @Test func aRunKilledWhileSendingSendsAgainWithTheSameMessageID() throws {
        let f = try mail.files(MailAnswerTests.invitation())
        let stalled = try LoggingSendmail(f, "stalled", then: "echo $$ > '\(f.home.path)/stalled.pid'\nexec sleep 1000")
        let run = Process()
        run.executableURL = URL(fileURLWithPath: Binary.path)
        run.arguments = ["reply", "--accept", "--send", "--state", f.state, f.invite]
        run.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": Binary.home, "COOLCAL_SENDMAIL": stalled.path]
            .merging(f.env) { $1 }
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        defer { if run.isRunning { kill(run.processIdentifier, SIGKILL) } }
        let pidFile = f.home.appendingPathComponent("stalled.pid").path
        var polls = 0
        // The pid once written whole (the file exists a moment before `echo` fills it).
        while Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") == nil
                && polls < 300 {
            usleep(100_000)
            polls += 1
        }
        let sendmailPID = try #require(Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""), "the sendmail never started")
        defer { kill(sendmailPID, SIGKILL) }
        // The sendmail has the message, and the state says `sending`: the kill lands between the two marks.
        #expect(try stalled.messages().count == 1)
        let during = try #require(try outbox(f, f.env).first)
        #expect(during["state"] as? String == "sending")
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        #expect(run.terminationReason == .uncaughtSignal && run.terminationStatus == SIGKILL)
        let after = try #require(try outbox(f, f.env).first)
        #expect(after["state"] as? String == "sending")
        let listing = try Binary.run(["outbox", "--state", f.state], env: f.env)
        #expect(listing.stdout.hasPrefix("sending reply \(Self.inviteID)  attempts 0  by mail\n"), "\(listing.stdout)")

        let good = try LoggingSendmail(f, "good")
        let env = f.env.merging(["COOLCAL_SENDMAIL": good.path]) { $1 }
        let flush = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        #expect(flush.status == 0, "\(flush.stderr)")
        #expect(flush.stdout == "mailed 1, failed 0, still queued 0\n")
        #expect(flush.stderr.contains("1 mail reply was sent again: an earlier delivery was interrupted (the same Message-ID"), "\(flush.stderr)")
        let first = try stalled.messages()
        let second = try good.messages()
        #expect(second == first)
        #expect(second.first.flatMap(Self.messageID) == after["message_id"] as? String)
        // Once: no later run sends it again.
        _ = try Binary.run(["outbox", "flush", "--state", f.state], env: env)
        let repeated = try Binary.run(["reply", "--accept", "--send", "--state", f.state, f.invite], env: env)
        #expect(repeated.stderr.hasSuffix("this answer was mailed already; not sent again\n"), "\(repeated.stderr)")
        #expect(try good.messages().count == 1)
        #expect(try outbox(f, env).isEmpty)
    }
}
