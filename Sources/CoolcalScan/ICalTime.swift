import CoolcalModel

/// A DATE or DATE-TIME value as written in a calendar, before any zone is applied.
public struct ICalTime: Hashable, Sendable {
    /// How the wall-clock fields are to be read.
    public enum Reference: Hashable, Sendable {
        case utc
        case floating
        case zoned(String)
    }

    /// The wall-clock fields as written.
    public var fields: CivilDateTime
    /// A DATE (VALUE=DATE), not a DATE-TIME.
    public var isDate: Bool
    /// UTC, floating or in a TZID; a DATE is always floating.
    public var reference: Reference

    /// A value; a DATE's `reference` is made floating.
    public init(fields: CivilDateTime, isDate: Bool, reference: Reference) {
        self.fields = fields
        self.isDate = isDate
        self.reference = isDate ? .floating : reference
    }

    /// The TZID this value names, if any.
    public var tzid: String? {
        if case .zoned(let id) = reference { return id }
        return nil
    }
}
