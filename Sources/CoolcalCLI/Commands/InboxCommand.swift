import Foundation
import CoolcalOutput
import CoolcalSupport
import CoolcalModel

/// `coolcal inbox [open N]`: the received invitations, newest first, each with your
/// answer; viewing the inbox clears the badge, opening one marks it read.
package struct InboxCommand: CommandUnit, Equatable {
    package static let unread = Flag("unread", short: "u", help: "list only the invitations not opened yet")
    package static let unanswered = Flag("unanswered", help: "list only the invitations not accepted, declined or answered tentatively yet")
    package static let held = Flag("held", help: "list only what merge held for you to decide, each with its reason (unknown sender, published, ...)")

    package static let spec = CommandSpec(
        name: "inbox",
        usage: "coolcal inbox [options] [open N]",
        summary: "list received invitations (newest first), or open one and mark it read",
        options: [unread.spec, unanswered.spec, held.spec] + SharedOptions.listing,
        examples: ["coolcal inbox", "coolcal inbox --unread", "coolcal inbox --unanswered", "coolcal inbox --held", "coolcal inbox open 3", "coolcal inbox --json"])

    package var common: CommonOptions
    /// The number, id or UID of the invitation to open.
    package var open: String?
    package var unreadOnly = false
    /// `--unanswered`: no accept, decline or tentative yet (a comment is no answer).
    package var unansweredOnly = false
    /// `--held`: what merge held for the person and nobody has answered yet.
    package var heldOnly = false

    package init(_ p: ParsedArguments) throws {
        switch p.operands.count {
        case 0: open = nil
        case 2 where p.operands[0] == "open": open = p.operands[1]
        default: throw p.usage("inbox takes nothing, or 'open N'")
        }
        unreadOnly = p.has(Self.unread)
        unansweredOnly = p.has(Self.unanswered)
        heldOnly = p.has(Self.held)
        if heldOnly && open != nil { throw p.usage("--held lists; it does not go with 'open'") }
        if unreadOnly && open != nil { throw p.usage("--unread lists; it does not go with 'open'") }
        if unansweredOnly && open != nil { throw p.usage("--unanswered lists; it does not go with 'open'") }
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let settings = try context.settings
        let answers = try context.answers
        _ = try answers.server()
        let store = try answers.open()
        let text = InboxText(style: settings.style, now: settings.now)
        if let open {
            guard let found = try store.inbox.entry(named: open), try store.inbox.markRead(id: found.id),
                  let entry = try store.inbox.entries().first(where: { $0.id == found.id }) else {
                throw InputFileError(kind: .missing, path: open, reason: "no " + InviteOperand.notInInbox)
            }
            context.out.write(common.json ? JSONWriter.string(InboxText.json(entry)) : text.render(entry))
        } else {
            let entries = try store.inbox.entries().filter {
                (!unreadOnly || !$0.read) && (!unansweredOnly || $0.isUnanswered) && (!heldOnly || $0.held != nil)
            }
            try store.badge.reset()
            if heldOnly && entries.isEmpty && !common.json {
                context.out.write("Nothing is held for you\n")
            } else if unansweredOnly && entries.isEmpty && !common.json {
                context.out.write("You have no unanswered invitations\n")
            } else {
                context.out.write(common.json ? JSONWriter.string(InboxText.json(entries)) : text.render(entries))
            }
        }
        try answers.deliver(store)
        return .ok
    }
}
