import CoolcalAnswering
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// `coolcal known` in words: one `ADDRESS  SOURCE` line per known sender and source
/// (addresses padded to one column), or `{"known": [{"address", "source", "detail"}]}`.
package enum KnownText {
    package static func render(_ entries: [KnownSender], json: Bool) -> String {
        if json {
            return JSONWriter.string(.object([("known", .array(entries.map { entry in
                .object([("address", .string(entry.address)), ("source", .string(entry.source.rawValue)),
                         ("detail", .string(detail(entry)))])
            }))]))
        }
        guard !entries.isEmpty else { return "Nobody is known: merge holds every new invitation unless accept-from admits it\n" }
        let addresses = entries.map { PrintableText.clean($0.address) }
        let width = addresses.map(\.count).max() ?? 0
        return zip(addresses, entries).map { address, entry in
            address.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + entry.source.rawValue + "\n"
        }.joined()
    }

    /// What names them: `Title (work.ics)`, `accepted: Title`, `accept-from = @corp.example`.
    package static func detail(_ entry: KnownSender) -> String {
        let title = entry.title.map { PrintableText.title($0) }
        switch entry.source {
        case .calendar, .organised:
            let calendar = entry.calendar ?? ""
            return title.map { "\($0) (\(calendar))" } ?? calendar
        case .answered:
            guard let answer = entry.answer else { return "answered before this coolcal kept the answer" }
            return answer.rawValue + (title.map { ": " + $0 } ?? "")
        case .acceptFrom:
            return "accept-from = " + entry.address
        }
    }
}
