/// What the pre-filter shows each line it scans (`ICalPreFilter.lineObserver`): a C
/// function and its context, called with a line's start and its length (its LF
/// included). Not a closure: calling a stored closure retained and released its context
/// on every line (18% of an edit's streamed read at 1M events).
package struct ScanLineObserver {
    package let function: @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt8>, Int) -> Void
    package let context: UnsafeMutableRawPointer

    package init(_ function: @convention(c) (UnsafeMutableRawPointer, UnsafePointer<UInt8>, Int) -> Void,
                 context: UnsafeMutableRawPointer) {
        self.function = function
        self.context = context
    }

    @inline(__always)
    func callAsFunction(_ start: UnsafePointer<UInt8>, _ count: Int) {
        function(context, start, count)
    }
}
