import CoolcalModel

/// What orders the revisions of one event (one UID, one RECURRENCE-ID or none):
/// RFC 5545 §3.8.7.4 SEQUENCE, then DTSTAMP, then LAST-MODIFIED (each wall-clock
/// fields read as UTC seconds; absent is lowest, SEQUENCE absent is 0). The pre-filter
/// builds one for each event it drops; `CoolcalICal` reads one from a parsed event.
public struct ICalRevision: Hashable, Sendable {
    /// The event's UID, as libical reads it.
    public var uid: String
    /// The RECURRENCE-ID of an override; nil for a master (or an event on its own).
    public var recurrenceID: ICalTime?
    /// SEQUENCE (0 when absent).
    public var sequence: Int
    /// DTSTAMP, its wall-clock fields as UTC seconds.
    public var stamp: Int64?
    /// LAST-MODIFIED, likewise.
    public var lastModified: Int64?

    /// A revision from its parts.
    public init(uid: String, recurrenceID: ICalTime?, sequence: Int, stamp: Int64?, lastModified: Int64?) {
        self.uid = uid
        self.recurrenceID = recurrenceID
        self.sequence = sequence
        self.stamp = stamp
        self.lastModified = lastModified
    }

    /// True when `self` is a later revision than `other`.
    public func isNewer(than other: ICalRevision) -> Bool {
        if sequence != other.sequence { return sequence > other.sequence }
        if stamp != other.stamp { return (stamp ?? .min) > (other.stamp ?? .min) }
        return (lastModified ?? .min) > (other.lastModified ?? .min)
    }
}
