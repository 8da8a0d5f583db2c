#if canImport(Glibc)
internal import CLinux
#endif

extension SystemCalls {
    /// `malloc_trim(3)`: the heap memory freed so far handed back to the kernel. glibc
    /// keeps what is freed in its arenas (one a thread) for the next allocations; after a
    /// large file's scan, whose records and pieces are freed once it ends, that memory
    /// would stay resident under the parse that follows (`ICalReader`). Not a file call:
    /// nothing to trace, and it cannot fail.
    package static func returnFreedMemory() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
