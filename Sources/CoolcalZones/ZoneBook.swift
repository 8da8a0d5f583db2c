import Foundation
import CoolcalModel

/// Resolves TZIDs for one calendar: the file's VTIMEZONEs first, then the system
/// zone database, then Windows zone names, then vendor prefixes such as
/// `/freeassociation.sourceforge.net/Europe/Berlin`. Unknown names give nil so the
/// caller can warn instead of silently shifting times.
public final class ZoneBook {
    private let fileZones: [String: ZoneRules]
    /// The calendar's X-WR-TIMEZONE (Google, Apple): the zone of its floating
    /// date-times. Dates, UTC and TZID values are not affected.
    public var floatingZoneID: String?
    private var cache: [String: ZoneRules?] = [:]

    /// A book for one calendar whose usable VTIMEZONEs are `fileZones` (by TZID).
    public init(fileZones: [String: ZoneRules] = [:]) {
        self.fileZones = fileZones
    }

    /// True when the file itself defines this TZID with a usable VTIMEZONE.
    public func definesInFile(_ tzid: String) -> Bool { fileZones[tzid] != nil }

    /// The rules for a TZID, or nil when no source knows it.
    public func zone(for tzid: String) -> ZoneRules? {
        if let zone = fileZones[tzid] { return zone }
        if let cached = cache[tzid] { return cached }
        let found = ZoneBook.systemZone(named: tzid)
        cache[tzid] = .some(found)
        return found
    }

    /// A zone of the system database by IANA or Windows name.
    public static func systemZone(named raw: String) -> ZoneRules? {
        let name = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        for candidate in candidates(for: name) {
            if let tz = TimeZone(identifier: candidate), isRealZone(tz, requested: candidate) {
                return SystemZone(tz)
            }
        }
        if let iana = WindowsZones.ianaIdentifier(forWindowsName: name)
            ?? WindowsDisplayNames.ianaIdentifier(forDisplayName: name), let tz = TimeZone(identifier: iana) {
            return SystemZone(tz)
        }
        return nil
    }

    private static func candidates(for name: String) -> [String] {
        var list = [name]
        let parts = name.split(separator: "/").map(String.init)
        if name.hasPrefix("/") || parts.count > 2 {
            // Vendor prefixes: keep the last one or two components (Europe/Berlin, UTC).
            if parts.count >= 2 { list.append(parts.suffix(2).joined(separator: "/")) }
            if parts.count >= 3 { list.append(parts.suffix(3).joined(separator: "/")) }
            if let last = parts.last { list.append(last) }
        }
        return list
    }

    /// Foundation accepts some names (abbreviations, "GMT+5") that are not zones people
    /// mean in a TZID; only accept identifiers it knows, or UTC/GMT spelled out.
    private static func isRealZone(_ tz: TimeZone, requested: String) -> Bool {
        let upper = requested.uppercased()
        if upper == "UTC" || upper == "GMT" || upper == "ETC/UTC" || upper == "Z" { return true }
        return TimeZone.knownTimeZoneIdentifiers.contains(requested) || tz.identifier == requested
    }
}
