import Foundation
import CoolcalCheck
import CoolcalModel
import CoolcalOutput
import CoolcalSchedule
import CoolcalState
import CoolcalSupport
import CoolcalAnswering
import CoolcalOutput

/// `review`'s loop: the terminal in raw mode (Support/TerminalMode.swift), one screen
/// per invitation (ReviewScreen.swift), a key at a time. Each answer goes through
/// `AnswerCommand` with this run's settings, as the commands answer; what it says
/// (`accepted: …`) is shown on the screen, and the screen moves to the next one.
/// `q` (or end of input) exits 0, or with the status of an answer that failed; `C-c`
/// exits 130. The terminal is restored on every way out.
package final class ReviewSession {
    private var entries: [InboxEntry]
    private let calendars: [CalendarLocation]
    private let check: ConflictCheck
    private let buffer: Buffer?
    /// `--reply`/`--no-reply`/the config's `reply`, for every answer of the session.
    private let reply: ReplyChoice
    private let context: RunContext
    private var index = 0
    /// What the last answer (or failure) said, shown under the day view.
    private var message: [String] = []
    /// The answers given in this session, by inbox number (the marks `inbox` shows).
    private var given: [Int64: String] = [:]
    /// The first answer that failed: the exit status of `q`.
    private var failure: ExitStatus?
    private var reports: [Int64: Result<ConflictReport, Error>] = [:]

    package init(entries: [InboxEntry], calendars: [CalendarLocation], check: ConflictCheck, buffer: Buffer?, reply: ReplyChoice,
                 context: RunContext) {
        self.entries = entries
        self.reply = reply
        self.calendars = calendars
        self.check = check
        self.buffer = buffer
        self.context = context
    }

    package func run() throws -> ExitStatus {
        guard let terminal = TerminalMode(fd: STDIN_FILENO, output: STDOUT_FILENO) else {
            throw UsageError("review needs a terminal on standard input", command: "review")
        }
        defer { terminal.restore() }
        try draw()
        while true {
            switch terminal.key() {
            case .resized: try draw()
            case .end: return failure ?? .ok
            case .byte(let key):
                switch key {
                case UInt8(ascii: "q"): return failure ?? .ok
                case 3: return .interrupted
                case UInt8(ascii: "a"): answer(.accept)
                case UInt8(ascii: "d"): answer(.decline)
                case UInt8(ascii: "t"): answer(.tentative)
                case UInt8(ascii: "s"): proposeNewTime()
                case UInt8(ascii: "x"): dismiss()
                case UInt8(ascii: "c"):
                    guard index < entries.count else { break }
                    switch try ReviewLineEditor(terminal: terminal, redraw: { try self.draw(prompt: $0) }).read() {
                    case .text(let text) where !text.isEmpty: answer(.comment(text))
                    case .text, .cancelled: message = ["no comment sent"]
                    case .interrupted: return .interrupted
                    }
                case UInt8(ascii: "n"), UInt8(ascii: "j"), UInt8(ascii: " "):
                    index = min(index + 1, entries.count)
                    message = []
                case UInt8(ascii: "p"), UInt8(ascii: "k"):
                    index = max(index - 1, 0)
                    message = []
                default:
                    break
                }
                try draw()
            }
        }
    }

    /// Answers the invitation shown, as `accept`, `decline --` or `comment` would; on
    /// success moves to the next one.
    private func answer(_ kind: AnswerKind) {
        running { entry, quiet in
            let targets = calendars.map(\.operand)
            // An invitation found in a calendar is declined there too: it needs the calendars.
            let status = try AnswerCommand.answer(kind, entry: entry, calendars: kind == .decline && entry.foundIn == nil ? [] : targets,
                                                   options: AnswerOptions(buffer: buffer), reply: reply, context: quiet)
            if status == .ok {
                given[entry.number] = Self.mark(kind)
                // The calendar may have changed: every day view is read again.
                reports = [:]
                index += 1
            }
            return status
        }
    }

    /// `x`: dismisses the invitation shown without answering it: nothing is written or
    /// mailed, the organizer is told nothing, and it leaves the unanswered (a changed
    /// re-sent invitation brings it back).
    private func dismiss() {
        running { entry, quiet in
            try quiet.answers.open().inbox.dismiss(id: entry.id)
            quiet.say("dismissed: \(PrintableText.title(InboxTitleText.text(entry.title))): not answered; the organizer was told nothing")
            given[entry.number] = "dismissed"
            index += 1
            return .ok
        }
    }

    /// `s`: proposes the first free slot of the invitation's length to its organizer, as
    /// `reply --counter --send N` does; the invitation stays unanswered.
    private func proposeNewTime() {
        running { entry, quiet in
            let arguments = ["--counter", "--send", "--", String(entry.number)] + calendars.map(\.operand)
            var command = try ReplyCommand(ArgumentParser.parse(arguments, spec: ReplyCommand.spec))
            command.buffer = buffer
            return try command.run(quiet)
        }
    }

    /// Runs `work` on the invitation shown with a context whose output is kept: what it
    /// said (and any warning or error) becomes the screen's message; a status other than 0
    /// is the first failure's.
    private func running(_ work: (InboxEntry, RunContext) throws -> ExitStatus) {
        guard index < entries.count else { return }
        let entry = entries[index]
        let sink = StringSink()
        let quiet = RunContext(common: context.common, environment: context.environment, diagnostics: context.diagnostics, out: sink)
        let warnings = context.diagnostics.warnings.count
        do {
            let status = try work(entry, quiet)
            message = sink.text.split(separator: "\n").map(String.init)
            if status != .ok { failure = failure ?? status }
        } catch {
            message = sink.text.split(separator: "\n").map(String.init) + ["error: \(error)"]
            failure = failure ?? ExitStatus.of(error)
        }
        message += context.diagnostics.warnings.dropFirst(warnings).map { "warning: \($0)" }
    }

    package static func mark(_ kind: AnswerKind) -> String { NoticeText.mark(kind) }

    /// The report behind the day view, read once per invitation (again after an answer).
    private func report(_ entry: InboxEntry) -> Result<ConflictReport, Error> {
        if let known = reports[entry.number] { return known }
        let result = Result { () throws -> ConflictReport in
            let invite = try InviteOperand.open(entry, context).invite
            return try check.run(invite, against: calendars).report
        }
        reports[entry.number] = result
        return result
    }

    private func draw(prompt: String? = nil) throws {
        let settings = try context.settings
        let size = TerminalMode.size(fd: STDOUT_FILENO)
        let width = TerminalSize.width(fd: STDOUT_FILENO, environment: settings.environment)
        let screen = ReviewScreen(style: settings.style, width: width, height: size?.rows ?? 24)
        let frame: String
        if index < entries.count {
            let entry = entries[index]
            frame = screen.render(entry: entry, position: (index + 1, entries.count), report: report(entry),
                                  given: given[entry.number], message: message, prompt: prompt)
        } else {
            // What is still unanswered of what was shown, as the inbox counts it (a skip, a comment).
            let shown = Set(entries.map(\.id))
            let left = (try? context.answers.open().inbox.entries().filter { shown.contains($0.id) && $0.isUnanswered }.count) ?? 0
            frame = screen.end(count: entries.count, answered: given.count, unanswered: left, message: message)
        }
        context.out.write(frame)
    }
}
