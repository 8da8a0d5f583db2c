import Foundation

/// `coolcal notify PAYLOAD [CAL...]`: what the app's notification service extension
/// did, as a filter. Prints the payload with `aps.alert.body` = "TITLE\nRANGE", the
/// badge arithmetic applied (`badge` N>0 adds N to the stored count and the output
/// carries the total; 0 resets), and `aps.category` blanked when the invitation is
/// invalid or a calendar is unreadable (the app then showed a plain notification).
/// Valid invitations go into the inbox.
struct NotifyCommand {
    let settings: Settings
    let common: CommonRequest
    let diagnostics: Diagnostics

    func run(path: String, calendars: [String], _ out: TextSink) throws -> ExitStatus {
        let name = InputFile.displayName(path)
        let data = try InputFile.read(path)
        guard data.count <= InviteLoader.maxBytes else {
            throw InviteError(file: name, message: "too large (\(data.count) bytes; at most \(InviteLoader.maxBytes))")
        }
        guard JSONValue.trailingComma(in: data) == nil,
              case .object(var payload)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw InviteError(file: name, message: "not a push payload (notify filters JSON objects)")
        }
        let answers = Answers(settings: settings, common: common, diagnostics: diagnostics)
        _ = try answers.server()
        let store = try answers.open()
        var aps: [(String, JSONValue)] = []
        if case .object(let pairs)? = JSONValue.object(payload)["aps"] { aps = pairs }
        var plain = false
        do {
            let invite = try InviteLoader.parse(data, name: name, floatingZone: settings.zone)
            let range = DateText(style: settings.style).short(start: invite.start, end: invite.end)
            var alert: [(String, JSONValue)] = []
            if case .object(let a)? = aps.first(where: { $0.0 == "alert" })?.1 { alert = a }
            set(&alert, "body", .string(invite.title + "\n" + range))
            set(&aps, "alert", .object(alert))
            _ = try store.recordInvitation(invite, payload: String(decoding: data, as: UTF8.self), at: settings.now)
        } catch let error as InviteError {
            diagnostics.warn("\(error); shown as a plain notification")
            plain = true
        }
        for calendar in calendars {
            do {
                _ = try CalendarSource.load(path: calendar, environment: settings.environment, diagnostics: diagnostics)
            } catch {
                diagnostics.warn("\(error); shown as a plain notification")
                plain = true
            }
        }
        if plain { set(&aps, "category", .string("")) }
        switch aps.first(where: { $0.0 == "badge" })?.1 {
        case .int(let n)? where n > 0:
            set(&aps, "badge", .int(Int64(try store.addBadge(Int(clamping: n)))))
        case .int(0)?:
            try store.resetBadge()
        default:
            break
        }
        set(&payload, "aps", .object(aps))
        out.write(JSONWriter.string(.object(payload), pretty: false))
        try answers.deliver(store)
        return .ok
    }

    private func set(_ pairs: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        if let i = pairs.firstIndex(where: { $0.0 == key }) { pairs[i].1 = value } else { pairs.append((key, value)) }
    }
}
