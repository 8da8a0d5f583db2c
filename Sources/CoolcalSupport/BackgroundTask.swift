import Foundation

/// One piece of work run on a thread of its own while the caller goes on (a large
/// calendar's search for stored copies and bare CRs while it is scanned and parsed:
/// `CalendarFileEdit`); `wait` gives its result.
/// Left unwaited it still runs to its end: it must only read what it was handed.
package final class BackgroundTask<Value: Sendable>: @unchecked Sendable {
    /// Written by the thread before `done` is signalled, read only after waiting for it.
    private var result: Value?
    private let done = DispatchSemaphore(value: 0)

    package init(_ work: @escaping @Sendable () -> Value) {
        Thread { [self] in
            // It yields to the threads the caller waits on (the scan's two), taking the
            // cores they leave idle (libical's parse is one thread): niceness 10, this
            // thread only (on Linux the nice value is per thread, and 0 names the caller).
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            result = work()
            done.signal()
        }.start()
    }

    /// Blocks until the work is done; its result (again on later calls).
    package func wait() -> Value? {
        done.wait()
        done.signal()
        return result
    }
}
