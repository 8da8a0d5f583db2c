import CoolcalCalendars
import CoolcalInvite
import CoolcalModel

/// How a busy occurrence relates to the invitation.
public enum Relation: String, Sendable {
    case overlaps
    case before
    case after
}

/// A busy occurrence in the buffered window.
public struct Conflict: Sendable {
    public var occurrence: Occurrence
    public var relation: Relation
    /// For a recurring invitation: which of `invite.checked` it concerns (the first
    /// it overlaps, else the first whose window it reaches).
    public var instance: Int? = nil
    /// Every instance whose buffered window it reaches (`[0]` for a single invitation).
    public var reaches: [Int] = [0]
    public var overlapsInvite: Bool { relation == .overlaps }
}

/// A free-time occurrence in the buffered window, with why it does not count.
public struct IgnoredOccurrence: Sendable {
    public var occurrence: Occurrence
    public var reason: IgnoreReason
}

/// The answer to "does it fit?": the invitation, its buffered window, what is busy in
/// it and what was seen but does not count.
public struct ConflictReport: Sendable {
    public var invite: Invite
    public var span: TimeWindow
    public var window: TimeWindow
    public var buffer: Buffer
    public var conflicts: [Conflict]
    public var ignored: [IgnoredOccurrence]

    public var free: Bool { conflicts.isEmpty }

    /// Whether the invitation's instance `i` is free (a single invitation: `free`).
    public func isFree(instance i: Int) -> Bool {
        !conflicts.contains { $0.reaches.contains(i) }
    }
}
