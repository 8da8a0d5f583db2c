/// The ids of inbox entries that are not an invitation's own (`Invite.ID.text`): an update
/// or cancellation held beside the invitation it would change, an attendee's reply. Their
/// form is written and read here only.
package enum InboxID {
    package static func heldUpdate(_ uid: String) -> String { "update:" + uid }
    package static func heldCancellation(_ uid: String) -> String { "cancellation:" + uid }
    /// One entry per reply: the event, the attendee, the reply's DTSTAMP (seconds).
    package static func reply(_ uid: String, attendee: String, stamp: Int64) -> String { "reply:\(uid):\(attendee):\(stamp)" }
    /// One entry per counter-proposal: the event, who proposes, the counter's DTSTAMP.
    package static func counter(_ uid: String, attendee: String, stamp: Int64) -> String { "counter:\(uid):\(attendee):\(stamp)" }

    /// The event's UID under an entry's id.
    package static func uid(of id: String, kind: InboxKind) -> String {
        for prefix in ["update:", "cancellation:"] where id.hasPrefix(prefix) { return String(id.dropFirst(prefix.count)) }
        for (entryKind, prefix) in [(InboxKind.reply, "reply:"), (.counter, "counter:")] where kind == entryKind && id.hasPrefix(prefix) {
            return id.dropFirst(prefix.count).split(separator: ":", omittingEmptySubsequences: false).dropLast(2).joined(separator: ":")
        }
        return id
    }
}
