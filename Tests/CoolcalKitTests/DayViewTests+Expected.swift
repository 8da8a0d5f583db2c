/// The day view's expected text, written by hand cell by cell (see DayViewTests for
/// each scenario): the invitation █, busy ▌, ignored ┊, rows per 15 minutes.
extension DayViewTests {
    static let overlap40 = [
            "  Wed 10 Jun",
            "  13:00            ▌Lunch",
            "                   ▌with Sam",
            "",
            "",
            "  14:00 █Family    ┊Focus",
            "        █Reunion   ┊time",
            "        █          ┊[work.ic… ▌Design",
            "        █          ┊(transpa… ▌review",
            "  15:00 █          ┊          ▌[work.ic…",
            "        █          ┊          ▌",
            "        █          ┊",
            "        █          ┊          ▌Car",
            "  16:00                       ▌service",
            "                              ▌[vdir]",
            "",
            "",
    ].joined(separator: "\n") + "\n"

    static let overlap80 = [
            "  Wed 10 Jun",
            "  13:00                         ▌Lunch with Sam",
            "                                ▌[family.ics]",
            "",
            "",
            "  14:00 █Family Reunion         ┊Focus time",
            "        █                       ┊[work.ics]",
            "        █                       ┊(transparent)          ▌Design review",
            "        █                       ┊                       ▌[work.ics]",
            "  15:00 █                       ┊                       ▌",
            "        █                       ┊                       ▌",
            "        █                       ┊",
            "        █                       ┊                       ▌Car service",
            "  16:00                                                 ▌[vdir]",
            "                                                        ▌",
            "",
            "",
    ].joined(separator: "\n") + "\n"

    static let overlap132 = [
            "  Wed 10 Jun",
            "  13:00                                          ▌Lunch with Sam",
            "                                                 ▌[family.ics]",
            "",
            "",
            "  14:00 █Family Reunion                          ┊Focus time",
            "        █                                        ┊[work.ics] (transparent)",
            "        █                                        ┊                                        ▌Design review",
            "        █                                        ┊                                        ▌[work.ics]",
            "  15:00 █                                        ┊                                        ▌",
            "        █                                        ┊                                        ▌",
            "        █                                        ┊",
            "        █                                        ┊                                        ▌Car service",
            "  16:00                                                                                   ▌[vdir]",
            "                                                                                          ▌",
            "",
            "",
    ].joined(separator: "\n") + "\n"

    static let allday40 = [
            "  Tue, Apr 14",
            "   all day ▌Spring break at the lake ho…",
            "   9:00\u{202F}AM",
            "",
            "                          ▌Standup",
            "",
            "  10:00\u{202F}AM █Dentist",
            "           █appointment",
            "           █downtown",
            "           █",
            "  11:00\u{202F}AM",
            "",
            "",
            "",
    ].joined(separator: "\n") + "\n"

    static let allday80 = [
            "  Tue, Apr 14",
            "   all day ▌Spring break at the lake house with the cousins [family.ics]",
            "   9:00\u{202F}AM",
            "",
            "                                              ▌Standup",
            "",
            "  10:00\u{202F}AM █Dentist appointment downtown",
            "           █",
            "           █",
            "           █",
            "  11:00\u{202F}AM",
            "",
            "",
            "",
    ].joined(separator: "\n") + "\n"

    static let allday132 = [
            "  Tue, Apr 14",
            "   all day ▌Spring break at the lake house with the cousins [family.ics]",
            "   9:00\u{202F}AM",
            "",
            "                                                                        ▌Standup",
            "",
            "  10:00\u{202F}AM █Dentist appointment downtown",
            "           █",
            "           █",
            "           █",
            "  11:00\u{202F}AM",
            "",
            "",
            "",
    ].joined(separator: "\n") + "\n"

    static let midnight40 = [
            "  Tue 5 May",
            "  22:30",
            "",
            "  23:00 █Night",
            "        █shift",
            "        █handover",
            "        █          ▌Server",
            "  Wed 6 May",
            "  00:00 █          ▌patch     ┊Sleep",
            "        █                     ┊[home.ic…",
            "                              ┊(decline…",
            "                              ┊",
    ].joined(separator: "\n") + "\n"

    static let midnight80 = [
            "  Tue 5 May",
            "  22:30",
            "",
            "  23:00 █Night shift handover",
            "        █",
            "        █",
            "        █                       ▌Server patch",
            "  Wed 6 May",
            "  00:00 █                       ▌[ops.ics]              ┊Sleep",
            "        █                                               ┊[home.ics] (declined)",
            "                                                        ┊",
            "                                                        ┊",
    ].joined(separator: "\n") + "\n"

    static let midnight132 = [
            "  Tue 5 May",
            "  22:30",
            "",
            "  23:00 █Night shift handover",
            "        █",
            "        █",
            "        █                                        ▌Server patch",
            "  Wed 6 May",
            "  00:00 █                                        ▌[ops.ics]                               ┊Sleep",
            "        █                                                                                 ┊[home.ics] (declined)",
            "                                                                                          ┊",
            "                                                                                          ┊",
    ].joined(separator: "\n") + "\n"

    static let fallback40 = [
            "  Sun, Nov 1",
            "  1:00\u{202F}AM -04",
            "",
            "              █Night train ▌Boarding",
            "              █",
            "  1:00\u{202F}AM -05 █",
            "              █",
            "                           ▌Arrival ca…",
            "",
    ].joined(separator: "\n") + "\n"

    static let fallback80 = [
            "  Sun, Nov 1",
            "  1:00\u{202F}AM -04",
            "",
            "              █Night train                     ▌Boarding",
            "              █",
            "  1:00\u{202F}AM -05 █",
            "              █",
            "                                               ▌Arrival call",
            "",
    ].joined(separator: "\n") + "\n"

    static let fallback132 = [
            "  Sun, Nov 1",
            "  1:00\u{202F}AM -04",
            "",
            "              █Night train                                               ▌Boarding",
            "              █",
            "  1:00\u{202F}AM -05 █",
            "              █",
            "                                                                         ▌Arrival call",
            "",
    ].joined(separator: "\n") + "\n"

    static let fallbackASCII = [
            "  Sun, Nov 1",
            "  1:00 AM -04",
            "",
            "              #Night train |Boarding",
            "              #",
            "  1:00 AM -05 #",
            "              #",
            "                           |Arrival ca~",
            "",
    ].joined(separator: "\n") + "\n"

}
