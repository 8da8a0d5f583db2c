import Testing
@testable import CoolcalAnswering
@testable import CoolcalOutput

/// `reply --send`'s words for each way its mail can stand (issue #47 item 1 moved the
/// workflow into `AnswerStore.send`; the words stayed as MailSendTests and
/// OutboxRetryTests pin them end to end).
@Suite struct SendTextTests {
    @Test func mailedNowIsOneLineOnStdout() {
        let text = SendText(.mailed(to: "olga@example.com"), .answer, source: "invite.ics")
        #expect(text == SendText.expected(line: "mailed to olga@example.com"))
    }

    @Test func mailedBeforeIsAWarningNamingWhatWasSent() {
        #expect(SendText(.alreadyMailed(to: "olga@example.com"), .answer, source: "3")
                == SendText.expected(warning: "3: this answer was mailed already; not sent again"))
        #expect(SendText(.alreadyMailed(to: "olga@example.com"), .counterProposal, source: "invite.ics")
                == SendText.expected(warning: "invite.ics: this counter-proposal was mailed already; not sent again"))
    }

    @Test func failedForGoodSaysNothingOnStdoutAndFails() {
        #expect(SendText(.failed(to: "olga@example.com", reason: "/bin/false: exit 1"), .answer, source: "invite.ics")
                == SendText.expected(failure: "/bin/false: exit 1; not sent (see 'coolcal outbox')"))
    }

    @Test func queuedSaysWhereAndWhyThenFails() {
        #expect(SendText(.queued(to: "carl@example.com", reason: "exit 75"), .refusal, source: "7")
                == SendText.expected(line: "queued for carl@example.com (exit 75)",
                                     failure: "exit 75; the refusal is queued, 'coolcal outbox flush' retries"))
    }
}

extension SendText {
    /// A value written by hand, field by field.
    static func expected(line: String? = nil, warning: String? = nil, failure: String? = nil) -> SendText {
        var text = SendText(.mailed(to: ""), .answer, source: "")
        text.line = line
        text.warning = warning
        text.failure = failure
        return text
    }
}
