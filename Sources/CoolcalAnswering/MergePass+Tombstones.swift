import CoolcalInvite
import CoolcalModel
import CoolcalWriting

/// Cancellations remembered across runs (`Tombstones` in the state): an invitation older
/// than a cancellation its organizer sent before it is ignored, even when the calendar
/// never held the event. Only a cancellation that passed the trust rules is remembered —
/// by binding when the event was stored, by `admission` (from its organizer, whom
/// `accept-from` admits) when it was not — so a forgery cannot bury a future invitation.
extension MergePass {
    /// What to remember of a whole-series cancellation just decided; nil when nothing.
    func tombstone(_ file: InvitationFile, _ outcome: WriteOutcome) -> (uid: String, organizer: String, version: ProtocolOrder.Version)? {
        guard outcome.heldReason == nil, let message = file.message, message.version.recurrenceIDs.isEmpty,
              let organizer = file.invite.organizer, let (uid, version) = ProtocolOrder.version(file) else { return nil }
        if case .absent = outcome, admission(file) != nil { return nil }
        return (uid, organizer, version)
    }

    /// The stale outcome when the state remembers a cancellation of this invitation's
    /// event, by the same organizer, not older than it; nil otherwise.
    func cancelledBefore(_ file: InvitationFile) throws -> WriteOutcome? {
        guard let state, let (uid, version) = ProtocolOrder.version(file),
              let found = try state.tombstones.find(uid: uid), found.organizer == file.invite.organizer else { return nil }
        let cancellation = ProtocolOrder.Version(sequence: found.sequence, stamp: found.stamp, cancel: true)
        guard version < cancellation else { return nil }
        return .stale("its organizer cancelled it (SEQUENCE \(found.sequence)); this is SEQUENCE \(version.sequence)")
    }
}
