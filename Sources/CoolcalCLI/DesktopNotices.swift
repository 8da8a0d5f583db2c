import Foundation
import CoolcalCheck
import CoolcalDesktop
import CoolcalInvite
import CoolcalOutput
import CoolcalSchedule

/// `merge --notify`: a notification per invitation, posted once the run is done; no
/// session bus (cron) is said only with `-v`.
package final class DesktopNotices {
    private var shown: [(invite: Invite, outcome: String)] = []

    package func add(_ invite: Invite, _ outcome: String) { shown.append((invite, outcome)) }

    package func post(_ context: RunContext, style: TextStyle) {
        guard !shown.isEmpty else { return }
        do {
            let bus = try SessionBus()
            let markup = try bus.capabilities().contains("body-markup")
            for (invite, outcome) in shown {
                try bus.notify(NotifyCommand.notification(invite, conflicts: nil, style: style, extra: outcome), markup: markup)
            }
            context.note("desktop: \(shown.count) notification\(shown.count == 1 ? "" : "s") shown")
        } catch {
            context.note("desktop: no notifications shown: \(error)")
        }
    }
}
