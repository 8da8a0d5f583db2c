import Foundation
import CoolcalICal
import CoolcalModel

/// Organizer binding (RFC 5546 §6.1, "spoofing the organizer"; RFC 6047 §3): an event
/// the calendar holds is changed or cancelled only by a message whose ORGANIZER is the
/// stored one and, for mail, whose sender is that organizer or the stored copy's
/// SENT-BY (a message cannot vouch for itself). An event the owner organises — its
/// ORGANIZER is one of `me`, or it has none (the owner's own event) — is never changed
/// by an incoming REQUEST or CANCEL. What fails is held for the person, not applied.
extension ITIPChange {
    /// The held outcome when this message may not change the stored copies; nil when
    /// it may (or when nothing is stored: a new invitation is the policy's to judge).
    func binding(_ stored: [EventBlock], _ text: CalendarText) -> WriteOutcome? {
        guard !stored.isEmpty else { return nil }
        let organizers = stored.map { $0.event.organizer.map(CalendarAddress.normalized) }
        let storedOrganizer = organizers.compactMap { $0 }.first
        let offered = message.organizer.map { CalendarAddress.normalized($0.address) }
        let mine = Set(me.map(CalendarAddress.normalized))
        if let storedOrganizer, mine.contains(storedOrganizer) {
            return .held(.youOrganise, "you are its organizer (\(storedOrganizer))")
        }
        if storedOrganizer == nil && offered != nil {
            return .held(.youOrganise, "the stored event has no organizer: it is your own; this message's is \(offered ?? "")")
        }
        guard organizers.contains(offered) else {
            // A person who read it may let the organizer hand the event over (RFC 5546 §3.2.2.4).
            if newOrganizer && offered != nil { return nil }
            return .held(.organizerChanged, "the stored event's organizer is \(storedOrganizer ?? "none"), this message's \(offered ?? "none")"
                         + "; 'coolcal accept --new-organizer' applies it")
        }
        if let sender, let storedOrganizer, sender != storedOrganizer,
           !stored.contains(where: { sentBy($0, text).contains(sender) }) {
            return .held(.notFromOrganizer, "mailed by \(sender.isEmpty ? "no single From address" : sender); the organizer is \(storedOrganizer)")
        }
        return nil
    }

    /// The SENT-BY addresses of the stored block's ORGANIZER line(s), normalized.
    private func sentBy(_ block: EventBlock, _ text: CalendarText) -> [String] {
        var found: [String] = []
        let organizer = Array("ORGANIZER".utf8)
        ContentLines.forEachUnfolded(in: Data(text.bytes[block.range]), startingWith: { ContentLines.upper($0) == organizer[0] }) { bytes in
            guard ContentLines.propertyName(bytes) == organizer else { return }
            let line = String(decoding: bytes, as: UTF8.self)
            // Parameters end at the first colon outside quotes (SENT-BY's value is a quoted URI).
            var quoted = false
            guard let colon = line.firstIndex(where: { c in
                if c == "\"" { quoted.toggle() }
                return c == ":" && !quoted
            }) else { return }
            for parameter in line[..<colon].split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].uppercased() == "SENT-BY" else { continue }
                found.append(CalendarAddress.normalized(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))))
            }
        }
        return found
    }
}

extension ITIPChange {
    /// `binding` against a stored copy read elsewhere (`text`: its blocks, or the calendar
    /// holding them): the held outcome when this message may not change it.
    package func held(in text: CalendarText) -> WriteOutcome? {
        binding(text.blocks(uid: uid), text)
    }
}
