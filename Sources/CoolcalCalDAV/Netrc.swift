import Foundation

/// A `.netrc` file as ftp and curl read it: `machine HOST login USER password PASS`
/// entries, one `default` entry for any other host, `macdef` bodies skipped (up to
/// the next empty line), `#` comments, and double-quoted tokens with `\` escapes.
package struct Netrc: Equatable {
    package struct Entry: Equatable {
        /// nil for the `default` entry.
        package var machine: String?
        package var login: String?
        package var password: String?
    }

    package var entries: [Entry] = []

    package init(entries: [Entry]) {
        self.entries = entries
    }

    package init(parsing text: String) {
        var tokens = Tokenizer(text)
        var current: Entry?
        while let token = tokens.next() {
            switch token {
            case "machine":
                if let current { entries.append(current) }
                current = Entry(machine: tokens.next() ?? "")
            case "default":
                if let current { entries.append(current) }
                current = Entry(machine: nil)
            case "login":
                let value = tokens.next()
                current?.login = value
            case "password":
                let value = tokens.next()
                current?.password = value
            case "account":
                _ = tokens.next()
            case "macdef":
                _ = tokens.next()
                tokens.skipMacroBody()
            default:
                break
            }
        }
        if let current { entries.append(current) }
    }

    /// The entry for `host` (case-insensitive; the port does not count, as in curl),
    /// else the `default` entry; with a `login`, only entries for that login match.
    package func entry(host: String, login: String?) -> Entry? {
        let host = host.lowercased()
        func fits(_ e: Entry) -> Bool { login == nil || e.login == login }
        return entries.first { $0.machine?.lowercased() == host && fits($0) }
            ?? entries.first { $0.machine == nil && fits($0) }
    }

    /// Splits the text into tokens; `#` starts a comment that runs to the end of the line.
    private struct Tokenizer {
        private let scalars: [Unicode.Scalar]
        private var i = 0

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        mutating func next() -> String? {
            while i < scalars.count {
                let c = scalars[i]
                if c == "#" {
                    while i < scalars.count && scalars[i] != "\n" { i += 1 }
                } else if c.properties.isWhitespace {
                    i += 1
                } else {
                    break
                }
            }
            guard i < scalars.count else { return nil }
            var token = String.UnicodeScalarView()
            if scalars[i] == "\"" {
                i += 1
                while i < scalars.count && scalars[i] != "\"" {
                    if scalars[i] == "\\" && i + 1 < scalars.count { i += 1 }
                    token.append(scalars[i])
                    i += 1
                }
                i += 1
            } else {
                while i < scalars.count && !scalars[i].properties.isWhitespace {
                    token.append(scalars[i])
                    i += 1
                }
            }
            return String(token)
        }

        /// A macro's body runs from the next line to the first empty line.
        mutating func skipMacroBody() {
            while i < scalars.count && scalars[i] != "\n" { i += 1 }
            i += 1
            while i < scalars.count {
                if scalars[i] == "\n" { i += 1; return }
                while i < scalars.count && scalars[i] != "\n" { i += 1 }
                i += 1
            }
        }
    }
}
