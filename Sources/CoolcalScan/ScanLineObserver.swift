/// What the pre-filter shows of the lines it scans (`ICalPreFilter.lineObserver`): a C
/// function and its context, called with a line's start, its length (its LF included)
/// and its offset in the text. Not a closure: calling a stored closure retained and
/// released its context on every line (18% of an edit's streamed read at 1M events).
///
/// Only the lines a block search can use are shown (a call per line of a calendar of
/// a million events was ~10% of the edit's read): every line that starts with B, E, U
/// or X in either case (BEGIN, END, UID, X-…), the first line, and each continuation
/// (space or tab) of a line shown. A shown line that does not start where the last one
/// ended follows lines not shown, none of which continued it.
package struct ScanLineObserver {
    package let function: @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt8>, Int, Int) -> Void
    package let context: UnsafeMutableRawPointer
    /// Whether the line before was shown (its continuations are).
    private var shownLast = false

    package init(_ function: @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt8>, Int, Int) -> Void,
                 context: UnsafeMutableRawPointer) {
        self.function = function
        self.context = context
    }

    /// The next line: shown if it is one of those above.
    @inline(__always)
    mutating func offer(_ start: UnsafePointer<UInt8>, _ count: Int, at offset: Int) {
        guard count > 0 else { return }
        let shown = Self.shows(start[0], offset: offset, afterShown: shownLast)
        if shown { function(context, start, count, offset) }
        shownLast = shown
    }

    /// Whether a line starting with `first`, after a line shown or not, is shown.
    @inline(__always)
    private static func shows(_ first: UInt8, offset: Int, afterShown: Bool) -> Bool {
        let small = first | 0x20
        return small == 0x62 || small == 0x65 || small == 0x75 || small == 0x78 || offset == 0
            || (afterShown && (first == 0x20 || first == 0x09))
    }
}
