import Foundation

/// What an `Authentication-Results` header (RFC 8601) says, read only as far as coolcal
/// needs: who wrote it (the authserv-id) and each method's result. Anyone can write such
/// a header, so only one written by a server the user trusts (`trusted-authserv`)
/// counts, and of those only the topmost: the user's own server adds its header on top.
public struct AuthenticationResults: Equatable, Sendable {
    /// The authserv-id, lowercased, without one trailing dot (`serverID`).
    public var server: String
    /// Each result in order: method (lowercased, without a version) and result (lowercased).
    public var results: [(method: String, result: String)]

    public static func == (a: Self, b: Self) -> Bool {
        a.server == b.server && a.results.map(\.method) == b.results.map(\.method)
            && a.results.map(\.result) == b.results.map(\.result)
    }

    /// Reads one header's value; nil when it names no authserv-id.
    public init?(_ value: String) {
        let parts = Self.split(Self.withoutComments(value))
        guard let first = parts.first?.split(whereSeparator: \.isWhitespace).first else { return nil }
        server = Self.serverID(Self.unquoted(first))
        results = parts.dropFirst().compactMap { part in
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let equals = text.firstIndex(of: "=") else { return nil }
            let method = text[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard let result = text[text.index(after: equals)...].split(whereSeparator: \.isWhitespace).first,
                  !method.isEmpty else { return nil }
            return (String(method.split(separator: "/").first ?? ""), result.lowercased())
        }
    }

    /// The verdict of the topmost header (`headers` topmost first) whose authserv-id is one
    /// of `trusted`: whether it says `dmarc=fail`. False when none is trusted's.
    public static func dmarcFailed(_ headers: [String], trusted: [String]) -> Bool {
        let servers = Set(trusted.map(serverID))
        guard !servers.isEmpty,
              let top = headers.lazy.compactMap(AuthenticationResults.init).first(where: { servers.contains($0.server) })
        else { return false }
        return top.results.contains { $0.method == "dmarc" && $0.result == "fail" }
    }

    /// An authserv-id as compared: lowercased, one trailing dot removed (a fully qualified
    /// name written `mx.home.example.` is the same server as `mx.home.example`).
    public static func serverID(_ id: String) -> String {
        let lowered = id.trimmingCharacters(in: .whitespaces).lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }

    /// The value with its (nested) comments removed, quoted strings kept as they are.
    private static func withoutComments(_ value: String) -> String {
        var out = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for c in value {
            if escaped {
                escaped = false
                if depth == 0 { out.append(c) }
                continue
            }
            switch c {
            case "\\" where quoted || depth > 0:
                escaped = true
                if depth == 0 { out.append(c) }
            case "\"" where depth == 0:
                quoted.toggle()
                out.append(c)
            case "(" where !quoted:
                depth += 1
            case ")" where !quoted && depth > 0:
                depth -= 1
                if depth == 0 { out.append(" ") }
            default:
                if depth == 0 { out.append(c) }
            }
        }
        return out
    }

    /// Split on the semicolons outside quoted strings.
    private static func split(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for c in value {
            if c == "\"" { quoted.toggle() }
            if c == ";" && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        return parts
    }

    private static func unquoted<S: StringProtocol>(_ s: S) -> String {
        var text = String(s)
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        return text
    }
}
