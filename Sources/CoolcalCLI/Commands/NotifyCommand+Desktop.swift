import Foundation
import CoolcalCheck
import CoolcalDesktop
import CoolcalInvite
import CoolcalOutput
import CoolcalSchedule
import CoolcalAnswering
import CoolcalModel

/// `notify --desktop` and `merge --notify`: a freedesktop notification on the session
/// bus (Desktop/SessionBus.swift); the chosen action answered through
/// `AnswerCommand`, as the `accept` and `decline` commands answer.
extension NotifyCommand {
    package static let acceptAction = DesktopNotification.Action(key: "accept", label: "Accept")
    package static let declineAction = DesktopNotification.Action(key: "decline", label: "Decline")

    /// The notification for an invitation: its title, and `NoticeText`'s body.
    package static func notification(_ invite: Invite, conflicts: Int?, style: TextStyle, extra: String? = nil) -> DesktopNotification {
        DesktopNotification(title: PrintableText.title(invite.title), body: NoticeText.body(invite, conflicts: conflicts, style: style, extra: extra))
    }

    /// Shows the notification and answers what is chosen within `--wait`; without a
    /// session bus or notification server, a warning and the text notification.
    /// The inbox is written and closed before the wait: nothing is locked meanwhile.
    package func desktopNotification(_ invite: Invite, text: String, _ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        // The CALs named, else the config's: where conflicts are looked for and Accept writes.
        let targets = (try? settings.calendars(calendars, command: "notify")) ?? []
        let check = ConflictCheck(finder: ConflictFinder(buffer: settings.buffer(buffer), zone: settings.zone), reader: settings.reader)
        let conflicts = targets.isEmpty ? nil : try? check.run(invite, against: targets).report.conflicts.count
        var shown = Self.notification(invite, conflicts: conflicts, style: settings.style)
        shown.actions = [Self.acceptAction, Self.declineAction]
        // Shown until answered: coolcal closes it itself when `--wait` is up.
        shown.expireTimeout = 0
        let response: DesktopResponse
        do {
            let bus = try SessionBus()
            let capabilities = try bus.capabilities()
            guard capabilities.contains("actions") else {
                try bus.notify(shown, markup: capabilities.contains("body-markup"))
                context.diagnostics.warn("the desktop's notification server shows no buttons; answer with 'coolcal accept \(invite.id.text)' or 'decline'")
                return .ok
            }
            context.note("desktop notification shown; waiting up to \(wait.seconds) s for Accept or Decline")
            response = try bus.show(shown, markup: capabilities.contains("body-markup"), waitSeconds: wait.seconds)
        } catch let unavailable as DesktopUnavailable {
            context.diagnostics.warn("\(unavailable); shown as a text notification")
            context.out.write(text)
            return .ok
        }
        // A file is answered from itself; standard input (read already) from the inbox.
        let operand = path == "-" ? invite.id.text : path
        switch response {
        case .action(Self.acceptAction.key):
            context.note("desktop: Accept chosen")
            return try AnswerCommand.answer(.accept, invite: operand, calendars: targets.map(\.operand),
                                             options: AnswerOptions(buffer: buffer), context: context)
        case .action(Self.declineAction.key):
            context.note("desktop: Decline chosen")
            // The calendars the state remembers it was written into, as `decline ID` does.
            return try AnswerCommand.answer(.decline, invite: operand, calendars: [], context: context)
        case .action(let other):
            context.say(NoticeText.notAnswered(invite, .unknownAction(other)))
        case .closed(let reason):
            context.say(NoticeText.notAnswered(invite, .closed(expired: reason == 1)))
        case .timedOut:
            context.say(NoticeText.notAnswered(invite, .timedOut(seconds: wait.seconds)))
        }
        return .ok
    }
}

/// `--wait SECONDS`: a whole number of seconds, 1 to a day.
package struct WaitSeconds: ArgumentValue, Equatable, Sendable {
    package var seconds: UInt32

    package init(_ seconds: UInt32) { self.seconds = seconds }

    package init?(argument: String) {
        guard let n = UInt32(argument), n >= 1, n <= 86_400 else { return nil }
        seconds = n
    }

    package static func invalid(_ text: String, option: String) -> String {
        "--\(option) '\(text)' is not a number of seconds from 1 to 86400"
    }
}
