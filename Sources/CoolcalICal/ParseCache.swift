import Foundation

/// The calendars parsed from the texts the pre-filter kept of a vdir's files. In a vdir
/// (one event per file) nearly every file is outside the window, and what is kept of it
/// is the same few hundred bytes: the VCALENDAR lines and the VTIMEZONEs it uses. Such a
/// text is parsed once.
///
/// Why an answer may be reused for another file: `ICalReader.parse` is a function of the
/// text and the file's name, and the name is used only in messages — warnings and errors
/// — and for the whole file, which it reads only when the text is over a cap (which
/// warns or throws). So only a text that parsed without an error and without a warning
/// is kept, and for another file with the same kept text the parse would give the same
/// calendar. (Its `skippedRevisions` are the file's own, set by the caller.) The zones
/// of the calendar are shared between those files: nothing changes a `ZoneBook` after
/// reading, and its lookups depend only on its definitions.
public final class ParseCache: @unchecked Sendable {
    /// Only short texts are kept (a shell is well under this).
    package static let maxText = 64 << 10
    /// At most this many texts: the distinct shells of a vdir are a handful.
    package static let maxEntries = 64
    private let lock = NSLock()
    private var known: [Data: ICalCalendar] = [:]

    public init() {}

    package subscript(text: Data) -> ICalCalendar? {
        guard text.count <= Self.maxText else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return known[text]
    }

    package func keep(_ calendar: ICalCalendar, for text: Data) {
        guard text.count <= Self.maxText, calendar.warnings.isEmpty, calendar.skippedRevisions.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        if known.count < Self.maxEntries { known[text] = calendar }
    }
}
