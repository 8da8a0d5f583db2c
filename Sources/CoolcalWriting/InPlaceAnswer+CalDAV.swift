import Foundation
import CoolcalCalDAV
import CoolcalModel
import CoolcalSupport

/// An invitation found pending in a CalDAV collection answered where the server holds
/// it (issue 49): the resource holding its UID read (REPORT, then GET for its bytes and
/// ETag), its blocks edited by `PendingAnswerEdit`, and stored with a conditional `PUT`
/// (`If-Match` that ETag). A 412 means it changed meanwhile: re-read and decide again,
/// up to `CalendarWriter.attempts` times, then 75. On a scheduling server this edit is
/// the answer: the server sends the organizer the REPLY.
extension InPlaceAnswer {
    func answerRemote(uid: String, url: String, partstat: String, stamp: String, comment: String?) throws -> Outcome {
        let client = try CalDAVClient(calendar: url, environment: writer.environment, diagnostics: writer.diagnostics)
        let shown = CalendarLocation.redact(url)
        for _ in 0..<max(1, writer.attempts) {
            guard let found = try client.find(uid: uid), let resource = try client.get(found.href) else {
                throw WriteError(kind: .io, path: shown, message: "no event with UID \(uid) here any more; nothing written")
            }
            let name = client.location.resourceName(resource.href)
            guard let edited = Self.edited(resource.data, uid: uid, me: me, partstat: partstat, stamp: stamp, comment: comment) else {
                return .notPending(name)
            }
            guard let etag = resource.etag else {
                throw CalDAVError(.badResponse, url: name, "the server gives no ETag for the event's resource; coolcal does not overwrite it blindly")
            }
            try CalendarWriter.verify(edited, has: uid, file: name)
            do {
                try client.put(resource.href, data: edited, precondition: .replace(etag: etag))
                return .edited(name)
            } catch let error as CalDAVError where error.kind == .preconditionFailed {
                writer.diagnostics?.note("\(name): changed on the server meanwhile (412); read again")
                continue
            }
        }
        throw WriteError(kind: .busy, path: shown, message: "the event kept changing on the server (\(writer.attempts) tries); nothing written, try again")
    }
}
