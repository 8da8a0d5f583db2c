import CoolcalModel
import CoolcalSupport

/// A freedesktop notification (Desktop Notifications Specification 1.2): what
/// `org.freedesktop.Notifications.Notify` is given. Plain text; `SessionBus` escapes
/// it for a server that renders markup.
package struct DesktopNotification: Sendable, Equatable {
    /// A button: the key `ActionInvoked` reports and the label shown.
    package struct Action: Sendable, Equatable {
        package var key: String
        package var label: String

        /// The memberwise initializer, for the targets above.
        package init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    package var appName = "coolcal"
    package var title: String
    package var body: String
    package var actions: [Action] = []
    /// Milliseconds before the server may close it; -1: the server's default.
    package var expireTimeout: Int32 = -1

    /// The actions as the specification's flat list: key, label, key, label…
    package var actionList: [String] { actions.flatMap { [$0.key, $0.label] } }

    /// Text for a server with the `body-markup` capability, which reads `<b>`, `&amp;`
    /// and the like: the five characters markup gives meaning to, as entities.
    package static func markupEscaped(_ text: String) -> String { MarkupText.escaped(text) }

    /// The memberwise initializer, for the targets above.
    package init(title: String, body: String, actions: [Action] = [], expireTimeout: Int32 = -1) {
        self.title = title
        self.body = body
        self.actions = actions
        self.expireTimeout = expireTimeout
    }
}

/// How a shown notification ended, as far as the waiting side saw it.
package enum DesktopResponse: Sendable, Equatable {
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
package struct DesktopUnavailable: StatusError, CustomStringConvertible, Equatable {
    package var reason: String
    package var description: String { reason }
    /// 74; `notify` catches it: a warning and the text notification, exit 0.
    package var exitStatus: ExitStatus { .ioError }
}
