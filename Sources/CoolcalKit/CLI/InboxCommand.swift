import Foundation

/// `coolcal inbox [open ID]`: the received invitations, newest first; viewing the
/// inbox clears the badge, opening one marks it read.
struct InboxCommand {
    let settings: Settings
    let common: CommonRequest
    let diagnostics: Diagnostics

    func run(open id: String?, _ out: TextSink) throws -> ExitStatus {
        let answers = Answers(settings: settings, common: common, diagnostics: diagnostics)
        _ = try answers.server()
        let store = try answers.open()
        let text = InboxText(style: settings.style, now: settings.now)
        if let id {
            guard try store.markRead(id: id), let entry = try store.entry(id: id) else {
                throw InputFileError(kind: .missing, path: id, reason: "no invitation with this id in the inbox")
            }
            out.write(common.json ? JSONWriter.string(InboxText.json(entry)) : text.render(entry))
        } else {
            let entries = try store.inbox()
            try store.resetBadge()
            out.write(common.json ? JSONWriter.string(InboxText.json(entries)) : text.render(entries))
        }
        try answers.deliver(store)
        return .ok
    }
}
