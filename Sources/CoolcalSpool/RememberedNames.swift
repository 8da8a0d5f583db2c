/// The file names (without flags) a Maildir's messages are remembered by, tallied
/// against one listing of it: a listed name is looked up without a string being made
/// for it (`baseName` is a slice of the file name), and what was not listed — the
/// messages gone since the last run — is known at the end without a set of the listing.
struct RememberedNames {
    /// Each remembered name, and whether the listing has it.
    private var listed: [Substring: Bool]
    /// How many remembered names the listing had so far.
    private var found = 0

    init(_ names: [Substring]) {
        listed = Dictionary(names.lazy.map { ($0, false) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `name` is remembered; it counts as listed from now on.
    mutating func contains(listing name: Substring) -> Bool {
        guard let at = listed.index(forKey: name) else { return false }
        if !listed.values[at] {
            listed.values[at] = true
            found += 1
        }
        return true
    }

    /// The remembered names not listed (as a rule none: then no set is made).
    var unlisted: Set<String> {
        guard found < listed.count else { return [] }
        return Set(listed.lazy.filter { !$0.value }.map { String($0.key) })
    }

    /// A Maildir file name without its folder and its info part (`:2,FLAGS`), which the
    /// mail client changes: a slice of `name`.
    static func baseName(_ name: String) -> Substring {
        let bytes = name.utf8
        var from = bytes.startIndex, to = bytes.endIndex
        var at = bytes.startIndex
        while at != bytes.endIndex {
            let byte = bytes[at]
            if byte == UInt8(ascii: "/") {
                from = bytes.index(after: at)
                to = bytes.endIndex
            } else if byte == UInt8(ascii: ":") && to == bytes.endIndex {
                to = at
            }
            at = bytes.index(after: at)
        }
        return name[from..<to]
    }
}
