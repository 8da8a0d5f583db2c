/// Collects warnings (unknown zones, skipped events, caps hit) for the CLI to print
/// on stderr. A reference type so that every layer of one run appends to one list.
public final class Diagnostics {
    public private(set) var warnings: [String] = []
    private var seen: Set<String> = []

    public init() {}

    /// Adds a warning once, however often it is reported.
    public func warn(_ message: String) {
        if seen.insert(message).inserted { warnings.append(message) }
    }
}
