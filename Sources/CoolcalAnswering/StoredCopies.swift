import Foundation
import CoolcalCalDAV
import CoolcalICal
import CoolcalModel
import CoolcalSupport
import CoolcalWriting

/// Which of a run's calendars already hold an event, by UID (issue #44, "where the UID
/// lives"): each calendar file, each vdir (a vdirsyncer tree as its vdirs) and each
/// CalDAV collection is looked through once for all the UIDs of the run's iTIP messages.
/// Only a copy that names one of `me` (as ATTENDEE or ORGANIZER) counts: a colleague's
/// shared calendar that holds the same meeting is not where my copy lives. The calendar
/// new invitations go into is asked with `anyCopy` (its copy is mine whatever it names,
/// as it always was). What is kept of each copy found is its blocks alone, wrapped as a
/// calendar: enough to judge organizer binding before anything is written.
struct StoredCopies {
    /// Per UID, the calendars holding a copy that counts, in the order they were given,
    /// and that copy's blocks.
    private var found: [String: [(location: CalendarLocation, blocks: CalendarText)]] = [:]

    /// `locations`: the calendars to look through, each with whether any copy counts there.
    init(_ locations: [(CalendarLocation, anyCopy: Bool)], uids: Set<String>, me: [String], writer: CalendarWriter) throws {
        guard !uids.isEmpty else { return }
        let mine = Set(me.map(CalendarAddress.normalized))
        let identities = uids.sorted().map { CalendarText.Identity(uid: $0, marker: nil) }
        for (location, anyCopy) in locations {
            for place in Self.vdirs(of: location) {
                for (uid, blocks) in try Self.copies(of: identities, in: place, writer: writer)
                where found[uid]?.contains(where: { $0.location == place }) != true
                    && (anyCopy || blocks.blocks(uid: uid).contains(where: { Self.names(mine, $0.event) })) {
                    found[uid, default: []].append((place, blocks))
                }
            }
        }
    }

    /// The calendars holding a copy of `uid` that counts.
    func homes(of uid: String) -> [CalendarLocation] { found[uid]?.map(\.location) ?? [] }

    /// The copy of `uid` in `location` (its blocks wrapped as a calendar), when it counts.
    func copy(of uid: String, in location: CalendarLocation) -> CalendarText? {
        found[uid]?.first { $0.location == location }?.blocks
    }

    /// Whether the event names one of `mine` as its ORGANIZER or one of its ATTENDEEs.
    static func names(_ mine: Set<String>, _ event: ICalEvent) -> Bool {
        ([event.organizer].compactMap { $0 } + event.attendees.map(\.address)).contains { mine.contains(CalendarAddress.normalized($0)) }
    }

    /// A directory of vdirs (vdirsyncer's top folder) as its vdirs; anything else as itself.
    static func vdirs(of location: CalendarLocation) -> [CalendarLocation] {
        guard case .vdir(let path) = location, case .tree(let subfolders)? = CalendarDirectory.probe(path) else { return [location] }
        return subfolders.map(CalendarLocation.vdir)
    }

    /// The UIDs among `identities` that `location` holds, each with its blocks.
    private static func copies(of identities: [CalendarText.Identity], in location: CalendarLocation,
                               writer: CalendarWriter) throws -> [(String, CalendarText)] {
        switch location {
        case .file(let path):
            return contents(path).map { blocks(of: identities, in: $0) } ?? []
        case .vdir(let dir):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            return names.sorted().filter(CalendarDirectory.isEventFile).flatMap { name in
                contents(dir + "/" + name).map { blocks(of: identities, in: $0) } ?? []
            }
        case .remote(let url):
            // One calendar-query per UID: the server finds the resource, as a write does.
            let client = try CalDAVClient(calendar: url, environment: writer.environment, diagnostics: writer.diagnostics)
            return try identities.flatMap { identity in
                guard let resource = try client.find(uid: identity.uid) else { return [(String, CalendarText)]() }
                return blocks(of: [identity], in: resource.data)
            }
        }
    }

    /// A regular file's bytes, or nil (anything else is never opened; one that cannot be
    /// read was said so when the calendars were read).
    private static func contents(_ path: String) -> Data? {
        guard FileStatus.of(path)?.kind == .regular else { return nil }
        return try? ICalReader.wholeFile(path)
    }

    /// The UIDs among `identities` whose blocks `data` holds (one pass over its bytes
    /// finds the candidates; only those are parsed), each with its blocks as a calendar.
    private static func blocks(of identities: [CalendarText.Identity], in data: Data) -> [(String, CalendarText)] {
        let candidates = CalendarText.candidateBlocks(in: data, for: identities)
        guard candidates.contains(where: { !$0.isEmpty }) else { return [] }
        let text = CalendarText(bytes: data)
        text.remember(candidates, for: identities)
        return zip(identities, candidates).compactMap { identity, ranges in
            let found = ranges.isEmpty ? [] : text.blocks(uid: identity.uid)
            guard !found.isEmpty else { return nil }
            var wrapped = Array("BEGIN:VCALENDAR\r\n".utf8)
            for block in found { wrapped += text.bytes[block.range] }
            wrapped += Array("END:VCALENDAR\r\n".utf8)
            return (identity.uid, CalendarText(bytes: wrapped))
        }
    }
}
