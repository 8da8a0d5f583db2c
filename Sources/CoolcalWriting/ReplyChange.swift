import Foundation
import CoolcalICal
import CoolcalModel
import CoolcalZones

/// An attendee's `METHOD:REPLY` applied to the organizer's copy (RFC 5546 §3.2.3): in
/// the stored blocks of an event the owner organises, that attendee's `PARTSTAT` is set
/// to the reply's — one line rewritten (`AttendeeEdit`), every other byte kept. A reply
/// for one instance (`RECURRENCE-ID`) edits only that instance's stored override.
/// Trust: the mail must come from the attendee who answers, and that attendee must be
/// in the event (else `uninvited attendee`: RFC 5546's party crasher is never added).
/// A reply to an older SEQUENCE than the stored one changes nothing. Every VEVENT of the
/// reply is applied (the series and each instance); the attendee's own parameters (CN,
/// LANGUAGE, DELEGATED-TO, DELEGATED-FROM) are updated with PARTSTAT.
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

    /// What the last `splice` applied: the VEVENTs of the reply taken (the series and each
    /// instance), and those whose RECURRENCE-ID is no instance of the series (nothing added).
    package let tally = ReplyTally()

    /// An attendee's answer: who, the PARTSTAT, with whom it delegates to and on whose
    /// behalf it answers (RFC 5546 §3.2.3), and the parameters that attendee owns.
    package typealias Answer = (attendee: String, partstat: String, delegatedTo: [String], delegatedFrom: [String],
                                name: String?, language: String?)

    /// The answering attendee and the answer: the reply's first ATTENDEE.
    package var answer: Answer? { message.versions.first.flatMap(Self.answer(of:)) }

    /// The answer one VEVENT of the reply carries: its first ATTENDEE.
    package static func answer(of event: ICalEvent) -> Answer? {
        guard let attendee = event.attendees.first else { return nil }
        return (CalendarAddress.normalized(attendee.address), (attendee.partstat ?? "NEEDS-ACTION").uppercased(),
                attendee.delegatedTo.map(CalendarAddress.normalized), attendee.delegatedFrom.map(CalendarAddress.normalized),
                attendee.name, attendee.language)
    }

    /// Every VEVENT of the reply (RFC 5546 §3.2.3: the series and any number of instances),
    /// each applied to its stored block; one held or stale VEVENT holds the whole reply.
    package func splice(of text: CalendarText, calendar: ICalCalendar, file: String) throws -> (Splice?, WriteOutcome) {
        var cuts: [(range: Range<Int>, bytes: [UInt8])] = []
        var applied = 0, notInstances = 0
        for version in Self.distinct(message.versions, zones: calendar.zones) {
            switch try part(version, of: text, zones: calendar.zones) {
            case .cuts(let more): cuts += more; applied += 1
            case .notAnInstance: notInstances += 1
            case .said(.absent): continue
            case .said(.unchanged): applied += 1
            case .said(let other): return (nil, other)
            }
        }
        tally.record(applied: applied, notInstances: notInstances)
        guard applied > 0 else { return (nil, .absent) }
        guard !cuts.isEmpty else { return (nil, .unchanged) }
        // A new override goes where the series ends, before a stored override that starts there.
        let ordered = cuts.enumerated().sorted {
            ($0.element.range.lowerBound, $0.element.range.upperBound, $0.offset) < ($1.element.range.lowerBound, $1.element.range.upperBound, $1.offset)
        }.map(\.element)
        guard let edited = Splice(base: text.bytes, cuts: ordered) else {
            throw ICalError(file: file, message: "the stored blocks of \(uid) overlap; not modified")
        }
        return (edited, .updated)
    }

    /// The reply's VEVENTs, one per RECURRENCE-ID (the last of each), the series first.
    static func distinct(_ versions: [ICalEvent], zones: ZoneBook) -> [ICalEvent] {
        var kept: [ICalEvent] = []
        for version in versions {
            kept.removeAll { old in
                switch (old.recurrenceID, version.recurrenceID) {
                case (nil, nil): return true
                case (let a?, let b?): return CalendarText.sameInstant(a, b, zones)
                default: return false
                }
            }
            kept.append(version)
        }
        return kept.filter { $0.recurrenceID == nil } + kept.filter { $0.recurrenceID != nil }
    }

    enum Part {
        case cuts([(range: Range<Int>, bytes: [UInt8])])
        case notAnInstance
        case said(WriteOutcome)
    }

    /// One VEVENT of the reply applied to its stored block (or, for an instance the
    /// calendar holds no override of, to a new override after the series).
    func part(_ version: ICalEvent, of text: CalendarText, zones: ZoneBook) throws -> Part {
        let instance = version.recurrenceID
        var (stored, targets) = text.organizedBlocks(uid: uid, me: me, instance: instance, zones: zones)
        // A reply for one instance the calendar holds no override of: judged on the series,
        // recorded in a new override of that instance (`ReplyChange+Instance`).
        let master = stored.first { $0.event.recurrenceID == nil && $0.event.isRecurring }
        let series = targets.isEmpty ? instance.flatMap { instance in
            master.flatMap { Self.isInstance(instance, of: $0.event, zones: zones) ? $0 : nil }
        } : nil
        if let series { targets = [series] }
        guard !targets.isEmpty, let answer = Self.answer(of: version) else {
            return instance != nil && master != nil ? .notAnInstance : .said(.absent)
        }
        if let sender, sender != answer.attendee {
            return .said(.held(.notFromOrganizer, "mailed by \(sender.isEmpty ? "no single From address" : sender); the reply is \(answer.attendee)'s"))
        }
        let offered = version.sequence ?? 0
        if let current = targets.compactMap(\.event.sequence).max(), offered < current {
            return .said(.stale("a reply to SEQUENCE \(offered); the event is at SEQUENCE \(current)"))
        }
        var (edits, invited) = AttendeeEdit.setting(partstat: answer.partstat, for: [answer.attendee], in: targets, of: text,
                                                    parameters: Self.owned(answer))
        if !invited, let delegator = delegator(of: answer, in: targets) {
            // A delegate (RFC 5546 §3.2.3): added, on the word of the attendee who delegated.
            let line = "ATTENDEE;PARTSTAT=\(answer.partstat);DELEGATED-FROM=\(Self.list([delegator])):mailto:\(answer.attendee)"
            edits = targets.map { ($0.range, PropertyEdit.replacing([], with: [line], in: Array(text.bytes[$0.range]))) }
            invited = true
        }
        guard invited else {
            return .said(.held(.uninvitedAttendee, "\(answer.attendee) is not an attendee of the event"))
        }
        guard !edits.isEmpty else { return .said(.unchanged) }
        if let series, let instance, let edit = edits.first {
            edits = [(series.range.upperBound..<series.range.upperBound, Self.override(of: series, at: instance, answered: edit.bytes, zones: zones))]
        }
        return .cuts(edits)
    }

    /// The parameters the attendee owns and a REPLY updates besides PARTSTAT: CN,
    /// LANGUAGE, DELEGATED-TO, DELEGATED-FROM, each where the reply gives it (ROLE,
    /// CUTYPE and RSVP stay the organizer's).
    static func owned(_ answer: Answer) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        if let name = answer.name { parameters.append(("CN", quoted(name))) }
        if let language = answer.language { parameters.append(("LANGUAGE", quoted(language))) }
        if !answer.delegatedTo.isEmpty { parameters.append(("DELEGATED-TO", list(answer.delegatedTo))) }
        if !answer.delegatedFrom.isEmpty { parameters.append(("DELEGATED-FROM", list(answer.delegatedFrom))) }
        return parameters
    }

    /// A parameter value as RFC 5545 §3.1 writes it: quoted when it holds `:`, `;` or `,`;
    /// a DQUOTE or control character, which no parameter value may hold, dropped.
    static func quoted(_ value: String) -> String {
        let clean = String(value.unicodeScalars.filter { $0 != "\"" && $0.value >= 0x20 && $0.value != 0x7F })
        return clean.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(clean)\"" : clean
    }

    package func preview(lineEnding: String) -> String { "" }

    /// The attendee the replier answers for, when the stored event says that attendee
    /// delegated to the replier (its `DELEGATED-TO`); nil for a party crasher.
    private func delegator(of answer: Answer, in blocks: [EventBlock]) -> String? {
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
