import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalOutput
import CoolcalSchedule
import CoolcalSupport

/// `coolcal notify PAYLOAD [CAL...]`: what the app's notification service extension
/// did, as a filter. Prints the payload with `aps.alert.body` = "TITLE\nRANGE", the
/// badge arithmetic applied (`badge` N>0 adds N to the stored count and the output
/// carries the total; 0 resets), and `aps.category` blanked when the invitation is
/// invalid or a calendar is unreadable (the app then showed a plain notification).
/// Valid invitations go into the inbox. An iTIP invitation or an e-mail carrying one is
/// taken too: the payload printed is built from it (with the sender and subject of a mail).
/// `--desktop`: a desktop notification instead (NotifyCommand+Desktop.swift).
package struct NotifyCommand: CommandUnit, Equatable {
    package static let desktop = Flag("desktop", help: "show a desktop notification (session D-Bus) with Accept and Decline, and answer as accept or decline would; without a session bus, the text notification")
    package static let wait = Option<WaitSeconds>("wait", value: "SECONDS", completion: .none, help: "with --desktop, how long to wait for Accept or Decline (default 60)")

    package static let spec = CommandSpec(
        name: "notify",
        usage: "coolcal notify [options] INVITE [CAL...]",
        summary: "rewrite a push payload's notification text and badge (a push-pipeline filter)",
        options: [desktop.spec, wait.spec, SharedOptions.tz.spec, SharedOptions.me.spec, SharedOptions.buffer.spec, SharedOptions.state.spec],
        examples: ["coolcal notify payload.json > shown.json", "receiver | coolcal notify - ~/cal.ics | display",
                   "coolcal notify --desktop invite.json ~/calendars/work.ics"])

    package var common: CommonOptions
    package var path: String
    package var calendars: [String]
    /// `--desktop`, and how long it waits for an answer.
    package var desktop = false
    package var wait = WaitSeconds(60)
    package var buffer: Buffer?

    package init(_ p: ParsedArguments) throws {
        guard let invite = p.operands.first else { throw p.usage("missing a payload") }
        path = invite
        calendars = Array(p.operands.dropFirst())
        common = try CommonOptions(p)
        desktop = p.has(Self.desktop)
        wait = try p.value(Self.wait) ?? WaitSeconds(60)
        buffer = try p.value(SharedOptions.buffer)
        if p.values[Self.wait.spec.long] != nil && !desktop { throw p.usage("--wait goes with --desktop") }
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        let shown = try textNotification(context)
        guard desktop, let invite = shown.invite else {
            if desktop { context.diagnostics.warn("no desktop notification for an invalid invitation; shown as text") }
            context.out.write(shown.text)
            return .ok
        }
        return try desktopNotification(invite, text: shown.text, context)
    }

    /// What `notify` does without `--desktop`: the inbox and badge updated, and the
    /// payload to print; with the invitation when it is a valid one.
    private func textNotification(_ context: RunContext) throws -> (text: String, invite: Invite?) {
        let settings = try context.settings
        let diagnostics = context.diagnostics
        let name = InputFile.displayName(path)
        let read = try InviteLoader.data(path)
        let (data, mail) = try InviteLoader.unwrap(read, name: name)
        if mail != nil || InviteLoader.startsLike(data, "BEGIN:VCALENDAR") {
            return try notifyITIP(data, mail: mail, name: name, context)
        }
        guard JSONValue.trailingComma(in: data) == nil,
              case .object(var payload)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw InviteError(file: name, message: "not a push payload (notify filters JSON objects)")
        }
        let answers = try context.answers
        _ = try answers.server()
        let store = try answers.open()
        var aps: [(String, JSONValue)] = []
        if case .object(let pairs)? = JSONValue.object(payload)["aps"] { aps = pairs }
        var plain = false
        var valid: Invite?
        do {
            let invite = try InviteLoader.parse(data, name: name, floatingZone: settings.zone)
            valid = invite
            let dates = DateText(style: settings.style)
            let range = dates.short(start: invite.start, end: invite.end) + "\n" + dates.zoneLine
            var alert: [(String, JSONValue)] = []
            if case .object(let a)? = aps.first(where: { $0.0 == "alert" })?.1 { alert = a }
            // What a phone or a desktop shows: the title cleaned of bidi controls and
            // separators, and cut (the payload's own `title` is left as it came).
            set(&alert, "body", .string(PrintableText.title(invite.title) + "\n" + range))
            set(&aps, "alert", .object(alert))
            _ = try store.inbox.record(invite, payload: String(decoding: data, as: UTF8.self), at: settings.now)
        } catch let error as InviteError {
            diagnostics.warn("\(error); shown as a plain notification")
            plain = true
        }
        for calendar in calendars {
            do {
                _ = try settings.reader.calendars(at: CalendarLocation(calendar), window: nil)
            } catch {
                diagnostics.warn("\(error); shown as a plain notification")
                plain = true
            }
        }
        if plain { set(&aps, "category", .string("")) }
        switch aps.first(where: { $0.0 == "badge" })?.1 {
        case .int(let n)? where n > 0:
            set(&aps, "badge", .int(Int64(try store.badge.add(Int(clamping: n)))))
        case .int(0)?:
            try store.badge.reset()
        default:
            break
        }
        set(&payload, "aps", .object(aps))
        try answers.deliver(store)
        return (JSONWriter.string(.object(payload), pretty: false), valid)
    }

    /// An iTIP invitation, or one that arrived by e-mail: prints the payload the push
    /// service would have sent for it (badge 1 added to the count), and puts it in the inbox.
    private func notifyITIP(_ data: Data, mail: MailHeaders?, name: String, _ context: RunContext) throws -> (text: String, invite: Invite?) {
        let settings = try context.settings
        var invite = try InviteLoader.parse(data, name: name, floatingZone: settings.zone)
        invite.mail = mail
        if invite.isCancellation { throw InviteLoader.cancellation(invite) }
        let answers = try context.answers
        _ = try answers.server()
        let store = try answers.open()
        _ = try store.inbox.record(invite, payload: String(decoding: data, as: UTF8.self), at: settings.now)
        var plain = false
        for calendar in calendars {
            do {
                _ = try settings.reader.calendars(at: CalendarLocation(calendar), window: nil)
            } catch {
                context.diagnostics.warn("\(error); shown as a plain notification")
                plain = true
            }
        }
        let dates = DateText(style: settings.style)
        let range = dates.short(start: invite.start, end: invite.end) + "\n" + dates.zoneLine
        let badge = try store.badge.add(1)
        var payload: [(String, JSONValue)] = [
            ("aps", .object([
                ("alert", .object([("title", .string(PrintableText.title(mail?.subject ?? "You're invited"))),
                                   ("body", .string(PrintableText.title(invite.title) + "\n" + range))])),
                ("badge", .int(Int64(badge))), ("category", .string(plain ? "" : "INVITATION")),
            ])),
            ("title", .string(invite.title)), ("start", .string(invite.start.jsonString)),
            ("end", .string(invite.end.jsonString)), ("id", .string(invite.id.text)),
        ]
        if let mail {
            payload.append(("from", mail.from.map(JSONValue.string) ?? .null))
            payload.append(("subject", mail.subject.map(JSONValue.string) ?? .null))
        }
        try answers.deliver(store)
        return (JSONWriter.string(.object(payload), pretty: false), invite)
    }

    private func set(_ pairs: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        if let i = pairs.firstIndex(where: { $0.0 == key }) { pairs[i].1 = value } else { pairs.append((key, value)) }
    }
}
