import Foundation

/// Where a calendar the user named lives: probed once, when the operand is read.
public enum CalendarLocation: Hashable, Sendable, CustomStringConvertible {
    /// An `.ics` file (which may not exist yet: `accept` creates it).
    case file(String)
    /// A directory of `.ics` files, one event each (vdir, vdirsyncer).
    case vdir(String)
    /// An `http(s)://` URL of a CalDAV calendar collection, as typed (it may carry
    /// `user:password@`; `shown` never does).
    case remote(String)

    /// `http(s)://…` is remote; an existing directory (or a symlink to one) a vdir;
    /// anything else a file.
    public init(_ operand: String) {
        if Self.isURL(operand) {
            self = .remote(operand)
            return
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory), isDirectory.boolValue {
            self = .vdir(operand)
        } else {
            self = .file(operand)
        }
    }

    /// The operand as the user gave it.
    public var operand: String {
        switch self {
        case .file(let p), .vdir(let p), .remote(let p): return p
        }
    }

    public var isRemote: Bool {
        if case .remote = self { return true }
        return false
    }

    /// What messages call it: the path, or the URL without its password.
    public var shown: String {
        switch self {
        case .file(let p), .vdir(let p): return p
        case .remote(let url): return Self.redact(url)
        }
    }

    public var description: String { shown }

    /// The name a calendar goes by in output: its file or directory base name, or a
    /// CalDAV collection's last path segment, percent-decoded (`work` for
    /// `https://host/dav/alice/work/`), else its host — never anything of its credentials.
    public var name: String {
        switch self {
        case .file(let p), .vdir(let p): return URL(fileURLWithPath: p).lastPathComponent
        case .remote(let url):
            guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
                return Self.redact(url)
            }
            let segment = components.path.split(separator: "/").last.map(String.init) ?? ""
            return segment.isEmpty ? host : segment
        }
    }

    /// True when an operand names a CalDAV collection rather than a file: it starts
    /// with `http://` or `https://`, in any case.
    public static func isURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The text with any `user:password@` in its authority removed. Works on text
    /// that does not parse as a URL too, so that no error can echo a password.
    ///
    /// A URL that parses loses exactly its user info. One that does not — a password
    /// with a raw `/`, `?` or `#` in it — loses everything from `://` to its last `@`:
    /// where the authority ends cannot be told, so the message shows less rather than
    /// a password.
    ///
    /// With a `marker`, the user info becomes it instead (`https://***@host/`), so the
    /// reader still sees that credentials were given. Every message that shows a URL
    /// goes through here.
    public static func redact(_ text: String, marker: String? = nil) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        if var components = URLComponents(string: text), components.host?.isEmpty == false {
            guard components.user != nil || components.password != nil else { return text }
            components.user = nil
            components.password = nil
            if let marker { components.percentEncodedUser = marker }
            if let clean = components.string { return clean }
        }
        guard let at = rest.lastIndex(of: "@") else { return text }
        return String(text[..<scheme.upperBound]) + (marker.map { $0 + "@" } ?? "") + String(rest[rest.index(after: at)...])
    }
}
