/// Where other readers are lenient, coolcal reads on too, and says what it assumed.
extension ICalReader {
    /// A `DTEND` libical could not read (`DTEND:19970701T1100000Z`, libical's own test
    /// data) is dropped by libical with an X-LIC-ERROR; the event is then read as if it
    /// had none (RFC 5545 §3.6.1). One warning per such event, naming it and saying
    /// what it was read as. (The pre-filter never drops such an event: its DTEND is not
    /// in a form it reads, so both reads give the warning.)
    package static func endWarnings(_ events: [ICalEvent], file: String) -> [String] {
        events.compactMap { event in
            // (An event without a DTSTART is skipped, and warned about as such.)
            guard event.start != nil, event.end == nil, let problem = event.problems.first(where: { $0.contains("in DTEND property") }) else {
                return nil
            }
            let assumed: String
            if event.duration != nil {
                assumed = "its DURATION gives its length"
            } else if event.start?.isDate == true {
                assumed = "it lasts one day"
            } else {
                assumed = "it ends when it starts"
            }
            let what = "event \"\(event.summary ?? "(no title)")\" (\(event.uid ?? "no UID"))"
            return "\(file): \(what): DTEND is not valid (\(problem)); read as if it had none: \(assumed)"
        }
    }
}
