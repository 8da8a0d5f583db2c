internal import CLibical

/// Outlook's own busy flag in a stored copy. Outlook sends an invitation with
/// `X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE` (how it shows while unanswered) and the
/// organizer's intent in `X-MICROSOFT-CDO-INTENDEDSTATUS`; Outlook and Exchange read the
/// busy flag, so an accepted copy that kept `TENTATIVE` would show tentative forever.
extension ITIPMessage {
    private static let busyStatus = "X-MICROSOFT-CDO-BUSYSTATUS"
    private static let intendedStatus = "X-MICROSOFT-CDO-INTENDEDSTATUS"

    /// Sets the busy flag of an answered Outlook event (one that has either property): the
    /// organizer's intended status when it says one (so FREE stays FREE), else `BUSY`, or
    /// `TENTATIVE` for a tentative answer. Other events, and other answers, are left alone.
    static func setOutlookBusyStatus(_ component: OpaquePointer, partstat: String) {
        guard partstat == "ACCEPTED" || partstat == "TENTATIVE" else { return }
        var busy: OpaquePointer?
        var intended: String?
        for prop in ICalWalk.properties(of: component) where icalproperty_isa(prop) == ICAL_X_PROPERTY {
            switch ICalWalk.copy(icalproperty_get_x_name(prop))?.uppercased() {
            case busyStatus?: busy = prop
            case intendedStatus?: intended = ICalWalk.copy(icalproperty_get_x(prop))?.trimmingCharacters(in: .whitespaces)
            default: break
            }
        }
        guard busy != nil || intended != nil else { return }
        let value = intended.flatMap { $0.isEmpty ? nil : $0.uppercased() } ?? (partstat == "TENTATIVE" ? "TENTATIVE" : "BUSY")
        if let busy {
            icalproperty_set_x(busy, value)
        } else if let added = icalproperty_new_x(value) {
            icalproperty_set_x_name(added, busyStatus)
            icalcomponent_add_property(component, added)
        }
    }
}
