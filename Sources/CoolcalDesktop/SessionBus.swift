internal import CGio
import Foundation

/// The user's session bus (GIO's GDBus, the only code that imports it) and the
/// notification server on it, `org.freedesktop.Notifications`.
package final class SessionBus {
    package static let service = "org.freedesktop.Notifications"
    package static let objectPath = "/org/freedesktop/Notifications"

    private let connection: OpaquePointer

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else GIO's defaults);
    /// `DesktopUnavailable` when there is none.
    package init() throws {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw DesktopUnavailable(reason: "no session bus (\(Self.take(&error)))")
        }
        self.connection = connection
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(connection)) }

    /// What the server says it can do (`actions`, `body-markup`…).
    package func capabilities() throws -> Set<String> {
        let reply = try call("GetCapabilities", nil)
        defer { g_variant_unref(reply) }
        let list = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(list) }
        var names: Set<String> = []
        for i in 0..<g_variant_n_children(list) {
            let item = g_variant_get_child_value(list, i)
            if let text = g_variant_get_string(item, nil) { names.insert(String(cString: text)) }
            g_variant_unref(item)
        }
        return names
    }

    /// Shows the notification and returns its id; the text escaped when the server
    /// renders markup.
    @discardableResult
    package func notify(_ notification: DesktopNotification, markup: Bool) throws -> UInt32 {
        let text = { (s: String) in markup ? DesktopNotification.markupEscaped(s) : s }
        let owned = notification.actionList.map { strdup($0) }
        defer { owned.forEach { free($0) } }
        let strv: [UnsafePointer<CChar>?] = owned.map { $0.map { UnsafePointer($0) } } + [nil]
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        var children: [OpaquePointer?] = [
            g_variant_new_string(notification.appName), g_variant_new_uint32(0), g_variant_new_string(""),
            g_variant_new_string(text(notification.title)), g_variant_new_string(text(notification.body)),
            g_variant_new_strv(strv, -1), g_variant_new_array(entryType, nil, 0),
            g_variant_new_int32(notification.expireTimeout),
        ]
        let reply = try call("Notify", g_variant_new_tuple(&children, gsize(children.count)))
        defer { g_variant_unref(reply) }
        let id = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(id) }
        return g_variant_get_uint32(id)
    }

    /// Shows the notification and waits at most `seconds` for `ActionInvoked` or
    /// `NotificationClosed` about it (listening from before it is shown, so a quick
    /// answer is not missed). On time-out it is closed.
    package func show(_ notification: DesktopNotification, markup: Bool, waitSeconds seconds: UInt32) throws -> DesktopResponse {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let signals = Signals()
        let token = Unmanaged.passUnretained(signals).toOpaque()
        let subscription = g_dbus_connection_signal_subscribe(
            connection, nil, Self.service, nil, Self.objectPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, member, parameters, data in
                guard let member, let parameters, let data else { return }
                Unmanaged<Signals>.fromOpaque(data).takeUnretainedValue().received(String(cString: member), parameters)
            }, token, nil)
        defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        let id = try withExtendedLifetime(signals) { try notify(notification, markup: markup) }
        let timer = g_timeout_source_new_seconds(seconds)
        g_source_set_callback(timer, { data in
            if let data { Unmanaged<Signals>.fromOpaque(data).takeUnretainedValue().timedOut = true }
            return 0
        }, token, nil)
        g_source_attach(timer, context)
        defer {
            g_source_destroy(timer)
            g_source_unref(timer)
        }
        return withExtendedLifetime(signals) {
            while true {
                if let response = signals.responses[id] { return response }
                if signals.timedOut {
                    close(id)
                    return .timedOut
                }
                g_main_context_iteration(context, 1)
            }
        }
    }

    /// `CloseNotification`; a server that has forgotten it is no error.
    package func close(_ id: UInt32) {
        var children: [OpaquePointer?] = [g_variant_new_uint32(id)]
        if let reply = try? call("CloseNotification", g_variant_new_tuple(&children, 1)) { g_variant_unref(reply) }
    }

    private func call(_ method: String, _ parameters: OpaquePointer?) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, Self.service, Self.objectPath, Self.service, method,
                                                      parameters, nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil, &error) else {
            throw DesktopUnavailable(reason: "no notification server on the session bus (\(Self.take(&error)))")
        }
        return reply
    }

    private static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let e = error else { return "no reason given" }
        defer {
            g_error_free(e)
            error = nil
        }
        return e.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }

    /// What the signal callback saw, by notification id (one thread: the waiting one).
    private final class Signals {
        var responses: [UInt32: DesktopResponse] = [:]
        var timedOut = false

        func received(_ member: String, _ parameters: OpaquePointer) {
            guard g_variant_n_children(parameters) == 2 else { return }
            let first = g_variant_get_child_value(parameters, 0), second = g_variant_get_child_value(parameters, 1)
            defer {
                g_variant_unref(first)
                g_variant_unref(second)
            }
            guard g_variant_is_of_type(first, g_variant_type_checked_("u")) != 0 else { return }
            let id = g_variant_get_uint32(first)
            if responses[id] != nil { return }
            if member == "ActionInvoked", g_variant_is_of_type(second, g_variant_type_checked_("s")) != 0,
               let key = g_variant_get_string(second, nil) {
                responses[id] = .action(String(cString: key))
            } else if member == "NotificationClosed", g_variant_is_of_type(second, g_variant_type_checked_("u")) != 0 {
                responses[id] = .closed(g_variant_get_uint32(second))
            }
        }
    }
}
