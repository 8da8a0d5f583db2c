/// `coolcal reply --me ADDRESS --accept|--decline|--tentative [--comment TEXT] INVITE`:
/// prints the attendee's `METHOD:REPLY` for an iCalendar invitation; writes nothing.
struct ReplyCommand {
    let request: ReplyRequest
    let settings: Settings

    func run(_ out: TextSink) throws {
        guard !settings.me.isEmpty else {
            throw UsageError("missing --me ADDRESS (the attendee you answer as; or 'me' in the config)", command: "reply")
        }
        let file = try InviteLoader.open(request.invite, floatingZone: settings.zone)
        let invite = file.invite
        guard let message = file.message else {
            throw InviteError(file: invite.source, message: "is a push payload; a REPLY answers an iCalendar invitation (use 'coolcal accept' or 'coolcal decline')")
        }
        guard !invite.isCancellation else {
            throw InviteError(file: invite.source, message: "is a cancellation (METHOD:CANCEL); there is nothing to answer")
        }
        guard let text = message.reply(me: settings.me, partstat: request.partstat, comment: request.comment, now: settings.now) else {
            let listed = message.attendees.map { PrintableText.clean($0, keepNewlines: false) }
            let who = listed.isEmpty ? "it lists no attendees" : "attendees: " + listed.joined(separator: ", ")
            throw InviteError(file: invite.source, message: "\(settings.me.joined(separator: ", ")) is not an attendee of this invitation (\(who))")
        }
        out.write(text)
    }
}
