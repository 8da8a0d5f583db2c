import Foundation
import CoolcalICal
import CoolcalModel

/// An attendee's `METHOD:REPLY` applied to the organizer's copy (RFC 5546 §3.2.3): in
/// the stored blocks of an event the owner organises, that attendee's `PARTSTAT` is set
/// to the reply's — one line rewritten (`AttendeeEdit`), every other byte kept. A reply
/// for one instance (`RECURRENCE-ID`) edits only that instance's stored override.
/// Trust: the mail must come from the attendee who answers, and that attendee must be
/// in the event (else `uninvited attendee`: RFC 5546's party crasher is never added).
/// A reply to an older SEQUENCE than the stored one changes nothing.
package struct ReplyChange: CalendarChange {
    package let message: ITIPMessage
    /// The owner's addresses: only an event whose ORGANIZER is one of them is changed.
    package let me: [String]
    /// The mail's From, normalized ("" when it named no single address); nil when the
    /// reply did not come by mail.
    package let sender: String?

    package init(message: ITIPMessage, me: [String], sender: String?) {
        self.message = message
        self.me = me
        self.sender = sender
    }

    package var uid: String { message.uid }

    /// The answering attendee and the answer: the reply's first ATTENDEE, with whom it
    /// delegates to and on whose behalf it answers (RFC 5546 §3.2.3).
    package var answer: (attendee: String, partstat: String, delegatedTo: [String], delegatedFrom: [String])? {
        guard let event = message.versions.first, let attendee = event.attendees.first else { return nil }
        return (CalendarAddress.normalized(attendee.address), (attendee.partstat ?? "NEEDS-ACTION").uppercased(),
                attendee.delegatedTo.map(CalendarAddress.normalized), attendee.delegatedFrom.map(CalendarAddress.normalized))
    }

    package func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
        let instance = message.versions.first?.recurrenceID
        var (stored, targets) = text.organizedBlocks(uid: uid, me: me, instance: instance, zones: calendar.zones)
        // A reply for one instance the calendar holds no override of: judged on the series,
        // recorded in a new override of that instance (`ReplyChange+Instance`).
        let series = targets.isEmpty ? instance.flatMap { instance in
            stored.first { $0.event.recurrenceID == nil && $0.event.isRecurring && Self.isInstance(instance, of: $0.event, zones: calendar.zones) }
        } : nil
        if let series { targets = [series] }
        guard !targets.isEmpty, let answer else { return (nil, .absent) }
        if let sender, sender != answer.attendee {
            return (nil, .held(.notFromOrganizer, "mailed by \(sender.isEmpty ? "no single From address" : sender); the reply is \(answer.attendee)'s"))
        }
        let offered = message.version.sequence
        if let current = targets.compactMap(\.event.sequence).max(), offered < current {
            return (nil, .stale("a reply to SEQUENCE \(offered); the event is at SEQUENCE \(current)"))
        }
        var parameters: [(name: String, value: String)] = []
        if !answer.delegatedTo.isEmpty { parameters.append(("DELEGATED-TO", Self.list(answer.delegatedTo))) }
        if !answer.delegatedFrom.isEmpty { parameters.append(("DELEGATED-FROM", Self.list(answer.delegatedFrom))) }
        var (edits, invited) = AttendeeEdit.setting(partstat: answer.partstat, for: [answer.attendee], in: targets, of: text,
                                                    parameters: parameters)
        if !invited, let delegator = delegator(of: answer, in: targets) {
            // A delegate (RFC 5546 §3.2.3): added, on the word of the attendee who delegated.
            let line = "ATTENDEE;PARTSTAT=\(answer.partstat);DELEGATED-FROM=\(Self.list([delegator])):mailto:\(answer.attendee)"
            edits = targets.map { ($0.range, PropertyEdit.replacing([], with: [line], in: Array(text.bytes[$0.range]))) }
            invited = true
        }
        guard invited else {
            return (nil, .held(.uninvitedAttendee, "\(answer.attendee) is not an attendee of the event"))
        }
        guard !edits.isEmpty else { return (nil, .unchanged) }
        if let series, let instance, let edit = edits.first {
            edits = [(series.range.upperBound..<series.range.upperBound, Self.override(of: series, at: instance, answered: edit.bytes, zones: calendar.zones))]
        }
        guard let edited = Splice(base: text.bytes, cuts: edits) else {
            throw ICalError(file: file, message: "the stored blocks of \(uid) overlap; not modified")
        }
        return (edited, .updated)
    }

    package func preview(lineEnding: String) -> String { "" }

    /// The attendee the replier answers for, when the stored event says that attendee
    /// delegated to the replier (its `DELEGATED-TO`); nil for a party crasher.
    private func delegator(of answer: (attendee: String, partstat: String, delegatedTo: [String], delegatedFrom: [String]),
                           in blocks: [EventBlock]) -> String? {
        answer.delegatedFrom.first { from in
            blocks.contains { block in
                block.event.attendees.contains {
                    CalendarAddress.normalized($0.address) == from && $0.delegatedTo.map(CalendarAddress.normalized).contains(answer.attendee)
                }
            }
        }
    }

    /// A DELEGATED-TO/-FROM value: each address quoted, with `mailto:`.
    private static func list(_ addresses: [String]) -> String {
        addresses.map { "\"mailto:\($0)\"" }.joined(separator: ",")
    }
}
