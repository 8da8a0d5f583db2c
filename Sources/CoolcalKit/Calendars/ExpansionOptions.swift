import Foundation

/// What occurrence expansion needs besides the calendars.
public struct ExpansionOptions {
    /// The zone for all-day dates and floating times (`--tz`).
    public var floatingZone: TimeZone
    /// The owner's addresses (`--me`), compared without `mailto:` and case.
    public var me: Set<String>
    /// Rule steps walked per event before giving up with a warning.
    public var maxSteps: Int
    /// Occurrences kept per event and window before giving up with a warning.
    public var maxOccurrencesPerEvent: Int

    public init(floatingZone: TimeZone, me: [String] = [], maxSteps: Int = 2_000_000,
                maxOccurrencesPerEvent: Int = 100_000) {
        self.floatingZone = floatingZone
        self.me = Set(me.map(ExpansionOptions.normalizedAddress))
        self.maxSteps = maxSteps
        self.maxOccurrencesPerEvent = maxOccurrencesPerEvent
    }

    /// `mailto:Me@Example.com` → `me@example.com`.
    public static func normalizedAddress(_ address: String) -> String {
        var a = address.trimmingCharacters(in: .whitespaces)
        if a.lowercased().hasPrefix("mailto:") { a.removeFirst(7) }
        return a.lowercased()
    }
}
