import Foundation
import CoolcalCalendars
import CoolcalInvite
import CoolcalModel

/// Computes the buffered window of an invitation and sorts the occurrences in it
/// into conflicts and ignored events.
public struct ConflictFinder {
    public var buffer: Buffer
    public var zone: TimeZone

    public init(buffer: Buffer, zone: TimeZone) {
        self.buffer = buffer
        self.zone = zone
    }

    /// The invitation itself as UTC instants (all-day dates read in `zone`).
    public func span(of invite: Invite) -> TimeWindow {
        TimeWindow(start: instant(invite.start), end: instant(invite.end))
    }

    /// `[start − buffer, end + buffer)`, with Calendar arithmetic in `zone`; for a
    /// recurring invitation, from the first instance's window to the last one's.
    public func window(for invite: Invite) -> TimeWindow {
        let windows = invite.checked.map { buffered(instanceSpan($0)) }
        return TimeWindow(start: windows.map(\.start).min() ?? 0, end: windows.map(\.end).max() ?? 0)
    }

    private func instanceSpan(_ i: InviteInstance) -> TimeWindow {
        TimeWindow(start: instant(i.start), end: instant(i.end))
    }

    private func buffered(_ s: TimeWindow) -> TimeWindow {
        TimeWindow(start: buffer.apply(to: s.start, sign: -1, in: zone), end: buffer.apply(to: s.end, sign: 1, in: zone)).clamped
    }

    /// Each occurrence in some instance's buffered window, once: a conflict with the
    /// first instance it overlaps (else the first whose window it reaches), or ignored.
    public func report(for invite: Invite, occurrences: [Occurrence]) -> ConflictReport {
        let spans = invite.checked.map(instanceSpan)
        let windows = spans.map(buffered)
        var conflicts: [Conflict] = []
        var ignored: [IgnoredOccurrence] = []
        for o in occurrences {
            let reached = windows.indices.filter { windows[$0].overlaps(start: o.startInstant, end: o.endInstant) }
            guard let first = reached.first else { continue }
            if let reason = reason(o, invite) {
                ignored.append(IgnoredOccurrence(occurrence: o, reason: reason))
                continue
            }
            let hit = reached.first { overlaps(spans[$0], o) } ?? first
            let relation: Relation
            if overlaps(spans[hit], o) {
                relation = .overlaps
            } else {
                relation = o.endInstant <= spans[hit].start ? .before : .after
            }
            conflicts.append(Conflict(occurrence: o, relation: relation, instance: spans.count > 1 ? hit : nil, reaches: reached))
        }
        return ConflictReport(invite: invite, span: spans[0], window: window(for: invite), buffer: buffer,
                              conflicts: conflicts, ignored: ignored)
    }

    private func overlaps(_ span: TimeWindow, _ o: Occurrence) -> Bool {
        span.overlaps(start: o.startInstant, end: o.endInstant) || overlapsZeroLengthSpan(span, o)
    }

    private func reason(_ o: Occurrence, _ invite: Invite) -> IgnoreReason? {
        if ConflictFinder.isInvitation(o, invite) { return .thisInvitation }
        return o.ignoreReason
    }

    /// An occurrence of the invitation's own accepted event: written by coolcal for a
    /// payload (`X-COOLCAL-INVITE-ID`), or an iTIP invitation's event (its UID).
    package static func isInvitation(_ o: Occurrence, _ invite: Invite) -> Bool {
        if let id = o.inviteID, id == invite.id.text { return true }
        if case .uid(let uid) = invite.id { return o.uid == uid }
        return false
    }

    /// A zero-length invitation at t is overlapped by anything that spans t.
    private func overlapsZeroLengthSpan(_ span: TimeWindow, _ o: Occurrence) -> Bool {
        span.start == span.end && o.startInstant <= span.start && o.endInstant > span.start
    }

    private func instant(_ t: OccurrenceTime) -> Int64 {
        t.instant(in: zone)
    }
}
