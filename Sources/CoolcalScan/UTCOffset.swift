/// A UTC offset as iCalendar writes it (RFC 5545 §3.3.14), read the same way by the
/// pre-filter's zone scan (`ScanZones`) and by `ICalReader`'s check of a file's
/// VTIMEZONE offsets.
package enum UTCOffset {
    /// A UTC offset value (`±HHMM` or `±HHMMSS`, minutes and seconds below 60) in
    /// seconds; nil for anything else.
    package static func seconds(_ value: some Collection<UInt8>) -> Int? {
        let chars = Array(value)
        guard chars.count == 5 || chars.count == 7, chars[0] == 0x2B || chars[0] == 0x2D,
              chars.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let number = { (at: Int) in Int(chars[at] - 0x30) * 10 + Int(chars[at + 1] - 0x30) }
        guard number(3) < 60 && (chars.count == 5 || number(5) < 60) else { return nil }
        let seconds = number(1) * 3600 + number(3) * 60 + (chars.count == 7 ? number(5) : 0)
        return chars[0] == 0x2D ? -seconds : seconds
    }
}
