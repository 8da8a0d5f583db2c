import Foundation
import CoolcalCalDAV
import CoolcalICal

/// Writes a change into a CalDAV calendar collection: the event's own resource — the
/// one holding its UID, else a new one named from the UID — is edited as calendar
/// text exactly like a vdir file, checked by libical, and stored with a conditional
/// `PUT` (`If-Match` its etag, or `If-None-Match: *` when new). A 412 means someone
/// changed it meanwhile: re-read and try again, and give up (75) after `attempts`.
package struct CalDAVWriter {
    package let client: CalDAVClient
    package var attempts = 3

    package func write(_ change: CalendarChange) throws -> WriteOutcome {
        var collisions = 0
        for _ in 0..<attempts {
            // The REPORT finds the resource; a GET gives its bytes as stored (an XML
            // answer has its line ends normalized) and the etag that goes with them.
            var existing = try client.find(uid: change.uid)
            if let found = existing { existing = try client.get(found.href) }
            let href = existing?.href ?? newHref(change.uid, collisions)
            let name = client.location.resourceName(href)
            let original = existing?.data ?? Data()
            let calendar = try ICalReader.read(original, file: name)
            let (edited, outcome) = try change.apply(to: CalendarText(bytes: [UInt8](original)), calendar: calendar, file: name)
            guard let data = edited else { return outcome }
            if outcome == .removed, let existing {
                // Changing your mind: the resource goes when the event was all it held.
                guard let etag = existing.etag else {
                    throw CalDAVError(.badResponse, url: name,
                                      "the server gives no ETag for the event's resource; coolcal does not delete it blindly")
                }
                do {
                    if CalendarText(bytes: [UInt8](data)).veventBlocks().isEmpty {
                        try client.delete(existing.href, etag: etag)
                    } else {
                        _ = try ICalReader.read(data, file: name)
                        try client.put(existing.href, data: data, precondition: .replace(etag: etag))
                    }
                    return outcome
                } catch let error as CalDAVError where error.kind == .preconditionFailed {
                    continue
                }
            }
            try CalendarWriter.verify(data, has: change.uid, file: name)
            let precondition: CalDAVClient.Precondition
            if let existing {
                guard let etag = existing.etag else {
                    throw CalDAVError(.badResponse, url: name,
                                      "the server gives no ETag for the event's resource; coolcal does not overwrite it blindly")
                }
                precondition = .replace(etag: etag)
            } else {
                precondition = .create
            }
            do {
                try client.put(href, data: data, precondition: precondition)
                return outcome
            } catch let error as CalDAVError where error.kind == .preconditionFailed {
                // A new name already taken by another event's resource: the next name.
                if existing == nil { collisions += 1 }
                continue
            }
        }
        throw CalDAVError(.preconditionFailed, url: client.location.display,
                          "the event's resource changed on the server while coolcal was writing it (\(attempts) tries); nothing written, try again")
    }

    /// `NAME.ics`, `NAME-2.ics`… for a new event, from its UID made safe.
    private func newHref(_ uid: String, _ collisions: Int) -> String {
        client.href(forName: VdirNaming.safeName(uid) + (collisions == 0 ? "" : "-\(collisions + 1)") + ".ics")
    }
}

extension CalendarWriter {
    /// The `EventHash` of the event's block as the CalDAV server now stores it (a server
    /// may re-serialize what it was sent); nil when it holds no such event.
    package func storedHash(uid: String, marker: String?, at url: String) throws -> String? {
        let client = try CalDAVClient(calendar: url, environment: environment, diagnostics: diagnostics)
        guard let found = try client.find(uid: uid), let resource = try client.get(found.href) else { return nil }
        let text = CalendarText(bytes: [UInt8](resource.data))
        return text.blocks(uid: uid, marker: marker).first { $0.event.recurrenceID == nil }.map { EventHash.of(text, $0) }
    }
}
