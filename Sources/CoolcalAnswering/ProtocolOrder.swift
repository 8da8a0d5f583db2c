import CoolcalICal
import CoolcalInvite
import CoolcalSpool

/// The order a run applies its messages in (RFC 5546 §2.1.5), whatever their file names
/// or Maildir folders: the messages of one UID by SEQUENCE, then DTSTAMP, a CANCEL after
/// a REQUEST only when both tie. Each UID's messages take the places its messages had
/// in the listing, so other invitations keep their order (and unreadable ones theirs).
enum ProtocolOrder {
    /// What orders an iTIP message among its UID's.
    struct Version: Comparable {
        let sequence: Int
        let stamp: Int64
        let cancel: Bool

        static func < (a: Version, b: Version) -> Bool {
            (a.sequence, a.stamp, a.cancel ? 1 : 0) < (b.sequence, b.stamp, b.cancel ? 1 : 0)
        }
    }

    /// The message's version: its highest SEQUENCE and latest DTSTAMP of its UID's VEVENTs.
    static func version(_ file: InvitationFile) -> (uid: String, version: Version)? {
        guard let message = file.message else { return nil }
        let stamp = message.versions.compactMap { $0.stamp?.fields.secondsAsUTC }.max() ?? Int64.min
        return (message.uid, Version(sequence: message.version.sequence, stamp: stamp, cancel: file.invite.isCancellation))
    }

    static func sorted(_ items: [SpoolItem]) -> [SpoolItem] {
        var groups: [String: [(index: Int, version: Version)]] = [:]
        for (i, item) in items.enumerated() {
            guard case .success(let file) = item.loaded, let (uid, version) = version(file) else { continue }
            groups[uid, default: []].append((i, version))
        }
        var result = items
        for group in groups.values where group.count > 1 {
            // Stable: equal versions keep their listing order.
            let ordered = group.enumerated().sorted { a, b in
                a.element.version < b.element.version || (!(b.element.version < a.element.version) && a.offset < b.offset)
            }
            for (slot, entry) in zip(group, ordered) { result[slot.index] = items[entry.element.index] }
        }
        return result
    }
}
