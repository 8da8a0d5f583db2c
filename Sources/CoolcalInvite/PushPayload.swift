import Foundation
import CoolcalModel
import CoolcalSupport

/// The original app's push payload: `{"aps": {...}, "title", "start", "end", "id"}`.
/// Unknown keys are ignored; `aps` is optional.
package enum PushPayload {
    package static func parse(_ data: Data, file: String) throws -> Invite {
        func fail(_ message: String) -> InviteError { InviteError(file: file, message: message) }
        guard String(data: data, encoding: .utf8) != nil else {
            throw fail("not UTF-8 text (a push payload is UTF-8 JSON)")
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw fail("empty (expected a JSON object with title, start, end and id)")
        }
        if let at = JSONValue.trailingComma(in: data) {
            throw fail("not valid JSON: a trailing comma at line \(at.line), column \(at.column)")
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw fail("not valid JSON: \(jsonProblem(data))")
        }
        guard case .object = root else {
            throw fail("expected a JSON object, found \(root.typeName)")
        }
        if let twice = JSONValue.duplicateKey(in: data) {
            throw fail("the key \"\(PrintableText.clean(twice.key))\" is given twice (line \(twice.line)); programs disagree on which one counts")
        }
        // Trimmed: readers disagree on trailing spaces in a SUMMARY (libical drops them).
        // Line breaks as iCalendar text has them (\n); a bare CR does not survive libical.
        let title = try string(root, "title", fail).replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
            throw fail("\"title\" is empty")
        }
        guard !title.unicodeScalars.contains(where: { PrintableText.isControl($0) && $0 != "\n" && $0 != "\t" }) else {
            throw fail("\"title\" contains control characters")
        }
        let start = try time(root, "start", fail)
        var end = try time(root, "end", fail)
        switch (start, end) {
        case (.date(let s), .date(let e)):
            if e < s { throw fail("\"end\" \(e.dateString) is before \"start\" \(s.dateString)") }
            if e == s { end = .date(s.addingDays(1)) }
        case (.instant(let s), .instant(let e)):
            if e < s {
                throw fail("\"end\" \(raw(root, "end")) is before \"start\" \(raw(root, "start"))")
            }
        default:
            throw fail("\"start\" and \"end\" must both be dates or both be date-times")
        }
        let id: Int64
        switch root["id"] {
        case .int(let n)?: id = n
        case nil: throw fail("missing \"id\"")
        case .double(let d)?:
            // As written: a Double would show 123456789012345678901234567890 as 1.2345678901234568e+29.
            let text = JSONValue.numberTexts(in: data)[[.key("id")]]?.first { Double($0) == d } ?? "\(d)"
            guard d.isFinite, d.rounded(.towardZero) == d else {
                throw fail("\"id\" must be an integer, found \(text)")
            }
            throw fail(d < 0 ? "\"id\" \(text) is out of range (at least \(Int64.min))"
                             : "\"id\" \(text) is out of range (at most \(Int64.max))")
        case let other?: throw fail("\"id\" must be an integer, found \(other.typeName)")
        }
        return Invite(id: .number(id), title: title, start: start, end: end, source: file)
    }

    private static func string(_ root: JSONValue, _ key: String, _ fail: (String) -> InviteError) throws -> String {
        switch root[key] {
        case .string(let s)?: return s
        case nil, .null?: throw fail("missing \"\(key)\"")
        case let other?: throw fail("\"\(key)\" must be a string, found \(other.typeName)")
        }
    }

    private static func raw(_ root: JSONValue, _ key: String) -> String {
        if case .string(let s)? = root[key] { return s }
        return "?"
    }

    private static func time(_ root: JSONValue, _ key: String, _ fail: (String) -> InviteError) throws -> OccurrenceTime {
        let text = try string(root, key, fail)
        do {
            return try InviteDate.parse(text)
        } catch InviteDate.Failure.noOffset {
            throw fail("\"\(key)\" \"\(text)\" has no UTC offset (write Z or ±HH:MM, e.g. 2022-08-20T08:00:00-08:00)")
        } catch {
            throw fail("\"\(key)\" \"\(text)\" is not an ISO 8601 date-time (2022-08-20T08:00:00-08:00) or date (2022-08-20)")
        }
    }

    /// JSONSerialization says where ("around character 15"); turn that into a line
    /// and column people can find.
    private static func jsonProblem(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "nesting too deep or a number out of range"
        } catch {
            let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            guard let range = text.range(of: " around character "),
                  let offset = Int(text[range.upperBound...].prefix(while: \.isNumber)) else { return text }
            let before = data.prefix(offset)
            let line = before.filter { $0 == 0x0A }.count + 1
            let column = before.count - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            let what = text[..<range.lowerBound].replacingOccurrences(of: " around ", with: "")
            return what.prefix(1).lowercased() + what.dropFirst() + " at line \(line), column \(column)"
        }
    }
}
