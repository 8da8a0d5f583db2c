import Foundation

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

    /// `[start − buffer, end + buffer)`, with Calendar arithmetic in `zone`.
    public func window(for invite: Invite) -> TimeWindow {
        let s = span(of: invite)
        return TimeWindow(start: buffer.apply(to: s.start, sign: -1, in: zone),
                          end: buffer.apply(to: s.end, sign: 1, in: zone))
    }

    public func report(for invite: Invite, occurrences: [Occurrence]) -> ConflictReport {
        let span = span(of: invite)
        let window = window(for: invite)
        var conflicts: [Conflict] = []
        var ignored: [IgnoredOccurrence] = []
        for o in occurrences where window.overlaps(start: o.startInstant, end: o.endInstant) {
            if let reason = reason(o, invite) {
                ignored.append(IgnoredOccurrence(occurrence: o, reason: reason))
                continue
            }
            let relation: Relation
            if span.overlaps(start: o.startInstant, end: o.endInstant) || overlapsZeroLengthSpan(span, o) {
                relation = .overlaps
            } else {
                relation = o.endInstant <= span.start ? .before : .after
            }
            conflicts.append(Conflict(occurrence: o, relation: relation))
        }
        return ConflictReport(invite: invite, span: span, window: window, buffer: buffer,
                              conflicts: conflicts, ignored: ignored)
    }

    private func reason(_ o: Occurrence, _ invite: Invite) -> IgnoreReason? {
        if ConflictFinder.isInvitation(o, invite) { return .thisInvitation }
        return o.ignoreReason
    }

    /// An occurrence of the invitation's own accepted event: written by coolcal for a
    /// payload (`X-COOLCAL-INVITE-ID`), or an iTIP invitation's event (its UID).
    static func isInvitation(_ o: Occurrence, _ invite: Invite) -> Bool {
        if let id = o.inviteID, id == invite.id.text { return true }
        if case .uid(let uid) = invite.id { return o.uid == uid }
        return false
    }

    /// A zero-length invitation at t is overlapped by anything that spans t.
    private func overlapsZeroLengthSpan(_ span: TimeWindow, _ o: Occurrence) -> Bool {
        span.start == span.end && o.startInstant <= span.start && o.endInstant > span.start
    }

    private func instant(_ t: OccurrenceTime) -> Int64 {
        switch t {
        case .instant(let s): return s
        case .date(let d): return SystemZone(zone).utcSeconds(of: d)
        }
    }
}
