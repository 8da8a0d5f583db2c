/// An RRULE's text read once into typed parts (RFC 5545 §3.3.10). The recurrence walks
/// (`CivilRecurrence`, `ByRuleRecurrence`, `WeekNumberRecurrence`) all use this reading
/// and none of them parses the text itself. It is read when the rule is read
/// (`ICalRule.Facts.parts`), not each time a walk starts.
///
/// The text is libical's writing of the rule (`ICalRule.textWithoutUntil`), so names and
/// values are upper case and each part appears once. The reading is nil when the text
/// breaks the RFC's grammar: a part without `=`, a part given twice, no FREQ, both UNTIL
/// and COUNT, or a value not of its part's form or outside its range (`FREQ=daily`,
/// `INTERVAL=0`, `BYMONTHDAY=32`, `BYDAY=`, `BYDAY=0MO`). libical lets some such values
/// through and writes them back (`BYMONTH=13`, `BYWEEKNO=54`, `BYDAY=-55WE`), so those rules
/// have no reading and no walk takes them, just as none did before. Empty parts
/// (`FREQ=DAILY;`) are skipped. The reading checks only the grammar: whether FREQ allows a BY part
/// (`ICalRule.disallowed`) is not its concern. A name the RFC does not list is `other`
/// and its value is not read. That covers RSCALE and SKIP (RFC 7529), x-names, and any
/// name that is not upper case. A walk that does not take a name declines the rule.
package struct RuleParts: Hashable, Sendable {
    package enum Frequency: String, CaseIterable, Hashable, Sendable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A weekday, numbered as libical numbers them (Sunday = 1 … Saturday = 7).
    package enum Weekday: Int, CaseIterable, Hashable, Sendable {
        case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

        /// RFC 5545's two letters, Sunday first.
        static let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].map { Array($0.utf8) }

        init?(code: Bytes) {
            guard let i = Weekday.codes.firstIndex(where: { $0.elementsEqual(code) }) else { return nil }
            self.init(rawValue: i + 1)
        }

        /// Monday = 0 … Sunday = 6.
        package var fromMonday: Int { (rawValue + 5) % 7 }
    }

    /// One BYDAY item: `TU` (ordinal 0: every Tuesday of the period), `2TU`, `-1FR`.
    package struct Day: Hashable, Sendable {
        package let weekday: Weekday
        /// ±1…53; 0 when the item has no number.
        package let ordinal: Int

        package init(_ weekday: Weekday, _ ordinal: Int = 0) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// The names a text gives.
    package struct Names: OptionSet, Hashable, Sendable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let freq = Names(rawValue: 1 << 0)
        package static let until = Names(rawValue: 1 << 1)
        package static let count = Names(rawValue: 1 << 2)
        package static let interval = Names(rawValue: 1 << 3)
        package static let bySecond = Names(rawValue: 1 << 4)
        package static let byMinute = Names(rawValue: 1 << 5)
        package static let byHour = Names(rawValue: 1 << 6)
        package static let byDay = Names(rawValue: 1 << 7)
        package static let byMonthDay = Names(rawValue: 1 << 8)
        package static let byYearDay = Names(rawValue: 1 << 9)
        package static let byWeekNo = Names(rawValue: 1 << 10)
        package static let byMonth = Names(rawValue: 1 << 11)
        package static let bySetPos = Names(rawValue: 1 << 12)
        package static let wkst = Names(rawValue: 1 << 13)
        /// Any name not listed above.
        package static let other = Names(rawValue: 1 << 14)

        /// Every BY part.
        package static let byParts: Names = [.bySecond, .byMinute, .byHour, .byDay, .byMonthDay, .byYearDay, .byWeekNo,
                                             .byMonth, .bySetPos]

        /// The RFC's names, in its grammar's order.
        static let known: [([UInt8], Names)] = [
            ("FREQ", .freq), ("UNTIL", .until), ("COUNT", .count), ("INTERVAL", .interval), ("BYSECOND", .bySecond),
            ("BYMINUTE", .byMinute), ("BYHOUR", .byHour), ("BYDAY", .byDay), ("BYMONTHDAY", .byMonthDay),
            ("BYYEARDAY", .byYearDay), ("BYWEEKNO", .byWeekNo), ("BYMONTH", .byMonth), ("BYSETPOS", .bySetPos),
            ("WKST", .wkst),
        ].map { (Array($0.utf8), $1) }

        /// The name these bytes spell, else `other`.
        static func named(_ name: Bytes) -> Names {
            known.first { $0.0.elementsEqual(name) }?.1 ?? .other
        }
    }

    /// A stretch of the text's UTF-8.
    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// The names the text gives, `other` for any the RFC does not list.
    package private(set) var names: Names = []
    package private(set) var frequency: Frequency = .daily
    /// Whatever digits COUNT has, 0 included.
    package private(set) var count: Int?
    /// 1 when not given.
    package private(set) var interval = 1
    /// Monday when not given.
    package private(set) var weekStart: Weekday = .monday
    package private(set) var byDay: [Day] = []
    /// In the order given, repeats kept, as for every list below.
    package private(set) var bySecond: [Int] = []
    package private(set) var byMinute: [Int] = []
    package private(set) var byHour: [Int] = []
    package private(set) var byMonthDay: [Int] = []
    package private(set) var byYearDay: [Int] = []
    package private(set) var byWeekNo: [Int] = []
    package private(set) var byMonth: [Int] = []
    package private(set) var bySetPos: [Int] = []

    /// nil when `text` is not a rule by the RFC's grammar (see the type's comment).
    package init?(_ text: String) {
        // Read as bytes: a rule is read with every event that has one (`Facts`).
        var text = text
        guard let parts = text.withUTF8({ RuleParts(bytes: $0[...]) }) else { return nil }
        self = parts
    }

    private init?(bytes text: Bytes) {
        var rest = text
        while !rest.isEmpty {
            let end = rest.firstIndex(of: RuleParts.semicolon) ?? rest.endIndex
            let part = rest[..<end]
            rest = rest[(end == rest.endIndex ? end : end + 1)...]
            if part.isEmpty { continue }
            guard let eq = part.firstIndex(of: RuleParts.equals) else { return nil }
            let name = part[..<eq], value = part[(eq + 1)...]
            let given = Names.named(name)
            if given != .other {
                guard !names.contains(given), read(value, as: given) else { return nil }
            }
            names.insert(given)
        }
        guard names.contains(.freq), !(names.contains(.until) && names.contains(.count)) else { return nil }
    }

    /// Each of a list's items (split at commas, empty ones too), until `body` says stop;
    /// false if it did.
    private static func each(_ list: Bytes, _ body: (Bytes) -> Bool) -> Bool {
        var rest = list
        while true {
            let end = rest.firstIndex(of: comma) ?? rest.endIndex
            guard body(rest[..<end]) else { return false }
            if end == rest.endIndex { return true }
            rest = rest[(end + 1)...]
        }
    }

    private static let semicolon = UInt8(ascii: ";"), equals = UInt8(ascii: "="), comma = UInt8(ascii: ",")
    private static let frequencies = Frequency.allCases.map { (Array($0.rawValue.utf8), $0) }

    /// Reads one part's value into its field; false when it is not of that part's form.
    private mutating func read(_ value: Bytes, as name: Names) -> Bool {
        let items = value.count(where: { $0 == RuleParts.comma }) + 1
        func list(signed: Bool, digits: Int, _ range: ClosedRange<Int>) -> [Int]? {
            var numbers: [Int] = []
            numbers.reserveCapacity(items)
            let read = RuleParts.each(value) { item in
                guard let n = RuleParts.number(item, signed: signed, digits: digits, range) else { return false }
                numbers.append(n)
                return true
            }
            return read ? numbers : nil
        }
        switch name {
        case .freq:
            guard let f = RuleParts.frequencies.first(where: { $0.0.elementsEqual(value) })?.1 else { return false }
            frequency = f
        case .until:
            // Kept apart by `ICalRule` (its time); here only whether it is given.
            return !value.isEmpty
        case .count:
            guard let n = RuleParts.number(value, signed: false, digits: 18, 0...Int.max) else { return false }
            count = n
        case .interval:
            guard let n = RuleParts.number(value, signed: false, digits: 18, 1...Int.max) else { return false }
            interval = n
        case .wkst:
            guard let d = Weekday(code: value) else { return false }
            weekStart = d
        case .byDay:
            var days: [Day] = []
            days.reserveCapacity(items)
            guard RuleParts.each(value, { item in
                guard let day = RuleParts.day(item) else { return false }
                days.append(day)
                return true
            }) else { return false }
            byDay = days
        case .bySecond: guard let l = list(signed: false, digits: 2, 0...60) else { return false }; bySecond = l
        case .byMinute: guard let l = list(signed: false, digits: 2, 0...59) else { return false }; byMinute = l
        case .byHour: guard let l = list(signed: false, digits: 2, 0...23) else { return false }; byHour = l
        case .byMonthDay: guard let l = list(signed: true, digits: 2, 1...31) else { return false }; byMonthDay = l
        case .byYearDay: guard let l = list(signed: true, digits: 3, 1...366) else { return false }; byYearDay = l
        case .byWeekNo: guard let l = list(signed: true, digits: 2, 1...53) else { return false }; byWeekNo = l
        case .byMonth: guard let l = list(signed: false, digits: 2, 1...12) else { return false }; byMonth = l
        case .bySetPos: guard let l = list(signed: true, digits: 3, 1...366) else { return false }; bySetPos = l
        default: return false
        }
        return true
    }

    /// `TU`, `2TU`, `+2TU`, `-1FR`: RFC 5545's weekdaynum, an ordinal of ±1…53 (1*2DIGIT).
    private static func day(_ item: Bytes) -> Day? {
        guard item.count >= 2, let weekday = Weekday(code: item.suffix(2)) else { return nil }
        let number = item.dropLast(2)
        if number.isEmpty { return Day(weekday) }
        guard let n = RuleParts.number(number, signed: true, digits: 2, 1...53) else { return nil }
        return Day(weekday, n)
    }

    /// A number as the RFC writes one: a sign (`+` or `-`) only if `signed`, 1 to `digits`
    /// ASCII digits, its size in `range` (a negative number's size is read without its sign).
    private static func number(_ text: Bytes, signed: Bool, digits: Int, _ range: ClosedRange<Int>) -> Int? {
        var rest = text
        var negative = false
        if signed, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        guard (1...digits).contains(rest.count) else { return nil }
        var size = 0
        for byte in rest {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            size = size * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard range.contains(size) else { return nil }
        return negative ? -size : size
    }
}
