import Foundation

/// Text from a server (an error body) with every credential it may echo replaced by
/// `***` before it reaches the state, the outbox or a message: `Authorization` header
/// values, `Basic` and `Bearer` tokens, a URL's `user:password@`, and the given secrets
/// themselves (the password, its `user:password` Base64).
public enum SecretText {
    public static func redact(_ text: String, secrets: [String] = []) -> String {
        var out = text
        for secret in secrets where secret.count >= 3 {
            out = out.replacingOccurrences(of: secret, with: "***")
        }
        // `Authorization: anything` to the end of its line or field.
        out = replacing(#"(?i)(authorization"?\s*[:=]\s*"?)[^"\r\n,;}]+"#, in: out, with: "$1***")
        out = replacing(#"(?i)\b(basic|bearer)\s+[A-Za-z0-9+/=._~-]{6,}"#, in: out, with: "$1 ***")
        out = replacing(#"(?i)([a-z][a-z0-9+.-]*://)[^/\s@"]+@"#, in: out, with: "$1***@")
        return out
    }

    private static func replacing(_ pattern: String, in text: String, with template: String) -> String {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        return regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }
}
