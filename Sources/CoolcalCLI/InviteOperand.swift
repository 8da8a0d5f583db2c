import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// An INVITE operand: an existing path (or `-`, standard input) is a file; anything
/// else names an inbox entry — by the local number `inbox` shows, a payload's id or
/// an iTIP invitation's UID.
package enum InviteOperand {
    /// What `inbox open` and INVITE operands say when no entry has that name.
    package static let notInInbox = "invitation in the inbox with this number, id or UID"

    /// An invitation to check or answer; a cancellation is refused (only `accept` and
    /// `merge` apply those to a calendar).
    package static func load(_ operand: String, _ context: RunContext) throws -> Invite {
        let zone = try context.settings.zone
        guard let entry = try inboxEntry(operand, context) else { return try InviteLoader.load(operand, floatingZone: zone) }
        // A counter-proposal's time is checked like an invitation's; a reply has none to check.
        var invite = try InviteLoader.open(Data(entry.payload.utf8), name: name(entry), floatingZone: zone, acceptingReplies: true).invite
        if invite.isCancellation { throw InviteLoader.cancellation(invite) }
        if invite.isAttendeeTraffic {
            throw InviteError(file: invite.source, message: "is an answer to an event (METHOD:\(invite.method ?? "")), not an invitation")
        }
        if invite.mail == nil { invite.mail = entry.mail }
        return invite
    }

    /// The invitation and, for iTIP, the message behind it.
    package static func open(_ operand: String, _ context: RunContext) throws -> InvitationFile {
        try openWithEntry(operand, context).file
    }

    /// `open`, and the inbox entry when the operand names one.
    package static func openWithEntry(_ operand: String, _ context: RunContext) throws -> (file: InvitationFile, entry: InboxEntry?) {
        let zone = try context.settings.zone
        guard let entry = try inboxEntry(operand, context) else { return (try InviteLoader.open(operand, floatingZone: zone), nil) }
        return (try Self.open(entry, context), entry)
    }

    /// The invitation an inbox entry keeps, with the e-mail headers it arrived with
    /// (so a mail reply has its `In-Reply-To`).
    package static func open(_ entry: InboxEntry, _ context: RunContext) throws -> InvitationFile {
        // Found only in a calendar (issue 49): its payload is the stored copy, not an
        // invitation; answering it would write the event anew instead of editing it.
        if let calendar = entry.foundIn, entry.mail == nil {
            throw UsageError("inbox \(entry.number) was found pending in calendar \(calendar), not received: "
                             + "accept N, accept --tentative N or decline N answer it in place", command: nil)
        }
        var file = try InviteLoader.open(Data(entry.payload.utf8), name: name(entry), floatingZone: try context.settings.zone,
                                         acceptingReplies: true)
        if file.invite.mail == nil { file.invite.mail = entry.mail }
        return file
    }

    /// The inbox entry `operand` names when it was found only in a calendar (issue 49:
    /// answered in place, `FoundAnswer`); nil for a file or any other entry.
    package static func foundInCalendar(_ operand: String, _ context: RunContext) throws -> InboxEntry? {
        guard let entry = try inboxEntry(operand, context), entry.foundIn != nil, entry.mail == nil else { return nil }
        return entry
    }

    /// What messages call an invitation read from the inbox.
    private static func name(_ entry: InboxEntry) -> String { "inbox \(entry.number)" }

    /// Nil for a file; the entry for an inbox name; 66 when it is neither. The state
    /// is only read, never created, for this.
    private static func inboxEntry(_ operand: String, _ context: RunContext) throws -> InboxEntry? {
        if operand == "-" || FileManager.default.fileExists(atPath: operand) { return nil }
        let answers = try context.answers
        let entry = answers.hasState
            ? try answers.open().inbox.entry(named: operand) : nil
        guard let entry else {
            throw InputFileError(kind: .missing, path: operand, reason: "no such file or directory, nor an \(notInInbox)")
        }
        context.note("\(operand): read from the inbox (number \(entry.number), id \(entry.id))")
        return entry
    }
}
