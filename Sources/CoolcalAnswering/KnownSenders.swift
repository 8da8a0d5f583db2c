import Foundation
import CoolcalCalDAV
import CoolcalModel
import CoolcalState

/// Who counts as known for `accept-from = known` (issue 43, "known, narrowly"): the
/// people my local calendars (files, vdirs, vdirsyncer trees) make known
/// (`CalendarPeople`: organizers of events I accepted or tentatively accepted, attendees
/// of events I organise), and the organizers I accepted or tentatively accepted an
/// invitation from by any path (the state's `known_senders`). Declining, dismissing or
/// ignoring makes nobody known, and my own addresses are never known. The calendars are
/// scanned only when an invitation asks, once a run. A CalDAV calendar is read only when
/// `remote` says over which window (issue 49: `merge`'s, from now to a year ahead, one
/// `calendar-query` REPORT per calendar, never the whole calendar); one that cannot be
/// read makes nobody known. Without `remote` its people become known once the person
/// accepts them.
package final class KnownSenders {
    private let calendars: [CalendarLocation]
    private let state: StateStore?
    private let people: CalendarPeople
    private var scanned: Set<String>?
    /// Where CalDAV calendars are read: the environment (credentials, timeout) and the window.
    package var remote: (environment: [String: String], window: TimeWindow)?

    package init(calendars: [CalendarLocation], state: StateStore?, me: [String]) {
        self.calendars = calendars
        self.state = state
        people = CalendarPeople(me: me)
    }

    /// Whether `address` (normalized) is known; one of `me` never is.
    package func contains(_ address: String) -> Bool {
        let address = CalendarAddress.normalized(address)
        guard !people.me.contains(address) else { return false }
        if let state, (try? state.senders.isKnown(address)) == true { return true }
        if scanned == nil {
            var found = Set<String>()
            forEachFile { _, path in people.scan(path) { found.insert($0.address) } }
            forEachRemote { _, data in people.scan(data: data) { found.insert($0.address) } }
            scanned = found
        }
        return scanned?.contains(address) ?? false
    }

    /// Everyone known and why, by address, then source (`KnownSender.Source`'s order);
    /// one entry per address and source, the first event found naming them.
    /// `rules`: the `accept-from` lines (their addresses and domains are listed too).
    package func list(rules: [AcceptFrom]) throws -> [KnownSender] {
        var entries: [KnownSender] = []
        var seen = Set<String>()
        func add(_ entry: KnownSender) {
            guard !people.me.contains(entry.address), seen.insert(entry.address + "\n" + entry.source.rawValue).inserted else { return }
            entries.append(entry)
        }
        forEachFile { location, path in
            people.scan(path) { found in
                add(KnownSender(address: found.address, source: found.organised ? .organised : .calendar,
                                title: found.title, calendar: location.name))
            }
        }
        for row in try state?.senders.known() ?? [] {
            add(KnownSender(address: row.address, source: .answered, title: row.title, answer: row.answer, since: row.since))
        }
        for rule in rules {
            switch rule {
            case .address, .domain: add(KnownSender(address: rule.description, source: .acceptFrom))
            case .anyone, .known: continue
            }
        }
        return entries.sorted { ($0.address, $0.source.order) < ($1.address, $1.source.order) }
    }

    /// Each local calendar file, with the calendar it belongs to.
    private func forEachFile(_ body: (CalendarLocation, String) -> Void) {
        for location in calendars {
            switch location {
            case .remote: continue
            case .file(let path): body(location, path)
            case .vdir(let path): for file in Self.icsFiles(under: path, depth: 2) { body(location, file) }
            }
        }
    }

    /// Each CalDAV calendar's events in `remote`'s window, as the server holds them.
    private func forEachRemote(_ body: (CalendarLocation, Data) -> Void) {
        guard let remote else { return }
        for location in calendars {
            guard case .remote(let url) = location,
                  let resources = try? CalDAVClient(calendar: url, environment: remote.environment).query(window: remote.window)
            else { continue }
            for resource in resources { body(location, resource.data) }
        }
    }

    private static func icsFiles(under directory: String, depth: Int) -> [String] {
        guard depth >= 0, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += icsFiles(under: path, depth: depth - 1)
            } else if name.lowercased().hasSuffix(".ics") {
                files.append(path)
            }
        }
        return files
    }
}
