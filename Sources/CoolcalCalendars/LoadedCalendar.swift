import CoolcalICal

/// A calendar the user named: an `.ics` file, a vdir directory of `.ics` files, or
/// a CalDAV collection URL.
public struct LoadedCalendar {
    /// What the user typed's base name: `work.ics`, `family` (a vdir), `work` (the
    /// last path segment of `https://host/dav/work/`).
    public var name: String
    public var color: String?
    /// What the calendar calls itself: a vdir's `displayname` file, else nil (`name`).
    public var displayName: String? = nil
    /// A CalDAV calendar whose `schedule-calendar-transp` is `transparent` (RFC 6638
    /// §9.1, read with the collection): its events are free time.
    public var transparent = false
    /// One parsed file each (a vdir has many), with the file's own zones.
    public var files: [ICalCalendar] {
        didSet { revisionsResolved = false }
    }
    /// Whether the events a newer revision supersedes are already left out of `files`
    /// (`resolvingRevisions`), so that expanding it does not work that out again.
    public private(set) var revisionsResolved = false

    public init(name: String, color: String?, files: [ICalCalendar], displayName: String? = nil) {
        self.name = name
        self.color = color
        self.files = files
        self.displayName = displayName
    }
}

extension LoadedCalendar {
    /// This calendar with the events a newer revision supersedes left out
    /// (`Revisions.current`), once: for expanding it in many windows (`merge`).
    public func resolvingRevisions() -> LoadedCalendar {
        guard !revisionsResolved else { return self }
        var resolved = self
        resolved.files = Revisions.current(files)
        resolved.revisionsResolved = true
        return resolved
    }
}
