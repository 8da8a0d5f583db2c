/// Text for XML and the markup notification servers read: the five characters
/// markup gives meaning to (`& < > " '`), as entities. One escaper for CalDAV's
/// request bodies and desktop notifications.
package enum MarkupText {
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
