/// A calendar the user named: an `.ics` file, a vdir directory of `.ics` files, or
/// a CalDAV collection URL.
public struct LoadedCalendar {
    /// What the user typed's base name: `work.ics`, `family` (a vdir), `work` (the
    /// last path segment of `https://host/dav/work/`).
    public var name: String
    public var color: String?
    /// What the calendar calls itself: a vdir's `displayname` file, else nil (`name`).
    public var displayName: String? = nil
    /// One parsed file each (a vdir has many), with the file's own zones.
    public var files: [ICalCalendar]

    public init(name: String, color: String?, files: [ICalCalendar], displayName: String? = nil) {
        self.name = name
        self.color = color
        self.files = files
        self.displayName = displayName
    }
}
