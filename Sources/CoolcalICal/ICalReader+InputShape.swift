import Foundation
import CoolcalScan

/// What `ICalReader` makes of what the scan of the bytes found (`InputShape`): whether
/// they can be iCalendar at all, and why libical gave up on them.
extension InputShape {
    /// Throws for files that are not iCalendar (`refusal`, naming `file`); false for
    /// blank ones (an empty calendar).
    package func check(file: String) throws -> Bool {
        if let refusal { throw ICalError(file: file, message: refusal) }
        return sawText
    }
}

/// Why libical gave up on a text (`ICalReader.parse`).
extension ICalReader {
    /// Why libical gave up: a component still open at the end of the file (the outermost,
    /// as the file was cut), else the first component that the END of an enclosing one
    /// left unclosed. (No line numbers: `data` may be what the pre-filter kept.)
    ///
    /// Not `ContentLines`: this splits decoded text at every Unicode line break (CR,
    /// NEL, U+2028…) and does not unfold, and its messages are what users, the tests
    /// and the `FuzzPreFilter` contract see; reading lines otherwise would change the
    /// message for such files.
    package static func unreadableReason(_ data: Data) -> String {
        var open: [String] = []
        // How many of each name are open: an END that closes nothing costs no search, so
        // the whole scan stays linear however the file nests.
        var openCount: [String: Int] = [:]
        var unclosed: (name: String, closedBy: String)?
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let upper = line.uppercased()
            if upper.hasPrefix("BEGIN:") {
                let name = upper.dropFirst(6).trimmingCharacters(in: .whitespaces)
                open.append(name)
                openCount[name, default: 0] += 1
            } else if upper.hasPrefix("END:") {
                // END:X closes up to its BEGIN:X; an END without one is ignored.
                let name = upper.dropFirst(4).trimmingCharacters(in: .whitespaces)
                guard openCount[name, default: 0] > 0, let match = open.lastIndex(of: name) else { continue }
                if unclosed == nil, match + 1 < open.count { unclosed = (open[match + 1], name) }
                for closed in open[match...] { openCount[closed, default: 1] -= 1 }
                open.removeSubrange(match...)
            }
        }
        if let outer = open.first {
            return "not a readable iCalendar file: truncated (BEGIN:\(outer) has no END:\(outer))"
        }
        if let inner = unclosed {
            return "not a readable iCalendar file: BEGIN:\(inner.name) has no END:\(inner.name) before END:\(inner.closedBy)"
        }
        return "not a readable iCalendar file (libical could not parse it)"
    }
}
