import Foundation
import Testing
import CoolcalModel
import CoolcalSupport
import CoolcalZones
import CoolcalScan
import CoolcalDesktop
import CoolcalMail
import CoolcalICal
import CoolcalCalendars
import CoolcalInvite
import CoolcalState
import CoolcalCalDAV
import CoolcalSchedule
import CoolcalWriting
import CoolcalSpool
import CoolcalRSVP
import CoolcalCheck
import CoolcalAnswering
import CoolcalOutput
import CoolcalCLI

/// What a person sees on a terminal (in-process: a pipe is never a terminal).
@Suite struct TerminalOutputTests {
    func run(_ env: [String: String]) -> String {
        let out = StringSink(), err = StringSink()
        let args = ["conflicts", Binary.sample("invite.json"), Binary.sample("work.ics"), Binary.sample("family.ics")]
        var variables = ["TZ": "UTC", "LANG": "en_US.UTF-8", "XDG_CONFIG_HOME": "/nonexistent"]
        variables.merge(env) { $1 }
        _ = CLI.run(args, environment: RunEnvironment(variables: variables, stdoutIsTerminal: true), stdout: out, stderr: err)
        return out.text
    }

    @Test func dayViewAndColourOnATerminal() {
        let text = run([:])
        #expect(text.contains("  \u{1B}[2mtimes in UTC\u{1B}[0m\n"))
        #expect(text.contains("\u{1B}[1m█Family Reunion\u{1B}[0m"), "the invitation's lane, bold")
        #expect(text.contains("\u{1B}[38;2;30;144;255m"), "work.ics colour from X-APPLE-CALENDAR-COLOR")
    }

    @Test func noColorKeepsTheDayViewWithoutEscapes() {
        let text = run(["NO_COLOR": "1"])
        #expect(text.contains("  times in UTC\n"))
        #expect(text.contains(" █Family Reunion"))
        #expect(!text.contains("\u{1B}["))
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() {
        let text = run(["NO_COLOR": "1", "LANG": "C"])
        #expect(text.contains("#"))
        #expect(!text.contains("█"))
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII || $0.properties.isAlphabetic })
    }
}
