/// Collects warnings (unknown zones, skipped events, caps hit) for the CLI to print
/// on stderr, and — with `--verbose` — notes of what was done and why. A reference
/// type so that every layer of one run reports to one place.
public final class Diagnostics {
    public private(set) var warnings: [String] = []
    private var seen: Set<String> = []
    /// Where notes go as they are made; nil (the default) drops them.
    public var onNote: ((String) -> Void)?

    public init() {}

    /// Whether notes are kept: callers skip work that only a note needs.
    public var verbose: Bool { onNote != nil }

    /// Adds a warning once, however often it is reported.
    public func warn(_ message: String) {
        if seen.insert(message).inserted { warnings.append(message) }
    }

    /// Says what was done and why (`--verbose`).
    public func note(_ message: @autoclosure () -> String) {
        onNote?(message())
    }
}
