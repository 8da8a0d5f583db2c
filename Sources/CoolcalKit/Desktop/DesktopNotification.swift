/// A freedesktop notification (Desktop Notifications Specification 1.2): what
/// `org.freedesktop.Notifications.Notify` is given. Plain text; `SessionBus` escapes
/// it for a server that renders markup.
struct DesktopNotification: Sendable, Equatable {
    /// A button: the key `ActionInvoked` reports and the label shown.
    struct Action: Sendable, Equatable {
        var key: String
        var label: String
    }

    var appName = "coolcal"
    var title: String
    var body: String
    var actions: [Action] = []
    /// Milliseconds before the server may close it; -1: the server's default.
    var expireTimeout: Int32 = -1

    /// The actions as the specification's flat list: key, label, key, label…
    var actionList: [String] { actions.flatMap { [$0.key, $0.label] } }

    /// Text for a server with the `body-markup` capability, which reads `<b>`, `&amp;`
    /// and the like: the five characters markup gives meaning to, as entities.
    static func markupEscaped(_ text: String) -> String { MarkupText.escaped(text) }
}

/// How a shown notification ended, as far as the waiting side saw it.
enum DesktopResponse: Sendable, Equatable {
    /// `ActionInvoked` with this key.
    case action(String)
    /// `NotificationClosed` with the specification's reason (1 expired, 2 dismissed,
    /// 3 closed by a call, 4 undefined).
    case closed(UInt32)
    /// Nothing within the wait; coolcal closed it.
    case timedOut
}

/// The session bus or its notification server is not there: a reason to fall back
/// to the text notification, never a failure.
struct DesktopUnavailable: Error, CustomStringConvertible, Equatable {
    var reason: String
    var description: String { reason }
}
