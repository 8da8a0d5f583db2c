import CoolcalModel

/// Whether an answer is mailed to the organizer: `--reply` (always), `--no-reply`
/// (never, this once), else the config's `reply` key (`mail` or `none`, the default).
/// The config's `mail` never mails an answer to an entry `merge` held (a stranger
/// learns nothing unless the person says `--reply`).
package enum ReplyChoice: Equatable {
    case always, never, config

    package init(_ p: ParsedArguments) throws {
        let yes = p.has(SharedOptions.reply), no = p.has(SharedOptions.noReply)
        if yes && no { throw UsageError("--reply and --no-reply contradict each other; give one", command: p.command) }
        self = yes ? .always : no ? .never : .config
    }

    /// Whether this answer is mailed; `held`: the entry answered was held by merge;
    /// `asked`: false when my ATTENDEE says `RSVP=FALSE` (only the config's `mail` obeys
    /// it: `--reply` by hand still mails).
    package func mails(_ settings: Settings, held: Bool = false, asked: Bool = true) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .config: return settings.replyMail && !held && asked
        }
    }

    /// Whether the config would have mailed this answer but for the organizer's `RSVP=FALSE`.
    package func withheldForRSVP(_ settings: Settings, held: Bool, asked: Bool) -> Bool {
        self == .config && settings.replyMail && !held && !asked
    }
}
