import Foundation
import CoolcalInvite
import CoolcalMail
import CoolcalModel
import CoolcalState
import CoolcalSupport

/// `coolcal process`'s spool: the messages parked by earlier runs that could not finish
/// (oldest first), then the one message handed over at delivery, each taken in as a
/// Maildir's are (`MessageIntake`: remembered in the state by Message-ID and calendar
/// part, so a message delivered twice is answered once). A parked message leaves
/// `parked/` once it is answered or known. The run lock (`STATE/process.lock`) makes
/// concurrent deliveries take their turns; the messages other deliveries handed over to
/// the lock's holder (`HandOverPlace`) are items of its run too, after its own.
package final class DeliverySource: MergeSource {
    /// The item name of the message handed over.
    package static let messageName = "message"
    /// The item name of a message another delivery handed over (`HandOverPlace`).
    package static func handedOverName(_ name: String) -> String { "handover/" + name }
    /// What delivered messages are remembered under in the state.
    package static let memory = "delivery:"

    private let message: Data?
    /// The messages other deliveries handed over, claimed: each name there and its bytes.
    private let handedOver: [(name: String, data: Data)]
    private let parked: [ParkedMessages]
    /// Where each parked item of the run waits, by item name.
    private var parkedAt: [String: (place: ParkedMessages, name: String)] = [:]
    /// The parked items the message handed over stands for (the same message, parked
    /// by an earlier run), by its item name.
    private var standsFor: [String: [String]] = [:]
    private let intake: MessageIntake
    /// The run lock, when this source took it (nil: the caller holds it for several runs).
    private let lock: FileLock?
    /// For each item name: the key it is remembered by, and its invitation's id.
    private var pending: [String: (key: String, inviteID: String?)] = [:]
    /// What became of each message handed over (by item name) that is no item of the run.
    package private(set) var skipped: [String: Skipped] = [:]
    /// A message handed over that is the same message as an item of the run (delivered
    /// twice at once), by item name: that item's name.
    package private(set) var sameAs: [String: String] = [:]
    /// Why the message handed over is no item of the run.
    package enum Skipped: Equatable {
        /// Not an invitation, or wholly past (the outcome it is remembered as).
        case skipped(OutcomeCode?)
        /// Delivered before and answered then.
        case seen(OutcomeCode)
        /// Not read past a bound; what the person can do.
        case bounded(String)
    }

    package var directory: String { "standard input" }

    /// `message`: the message handed over (nil: only the parked ones); `parked`: every
    /// parking place (`ParkingPlaces`); `handedOver`: what other deliveries handed over;
    /// `holding`: the run lock when the caller took it (else it is taken here, and
    /// released by `unlock`).
    package init(message: Data?, handedOver: [(name: String, data: Data)] = [], parked: [ParkedMessages], store: StateStore,
                 now: Date, lockTimeout: TimeInterval, holding: FileLock? = nil) throws {
        self.message = message
        self.handedOver = handedOver
        self.parked = parked
        intake = MessageIntake(store: store, realPath: Self.memory, now: now)
        lock = holding == nil ? try Self.runLock(stateDirectory: store.directory, timeout: lockTimeout) : nil
    }

    /// The run lock of `process` runs on one state: `STATE/process.lock`.
    package static func runLock(stateDirectory: String, timeout: TimeInterval) throws -> FileLock {
        try FileLock(path: stateDirectory + "/process.lock", inState: true, timeout: timeout)
    }

    package func items(floatingZone: TimeZone, diagnostics: Diagnostics) throws -> [SpoolItem] {
        var items: [SpoolItem] = []
        // Every place's, oldest first (the name starts with the time it was parked).
        let waiting = parked.flatMap { place in place.names().map { (place: place, name: $0) } }
            .enumerated().sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }.map(\.element)
        for (place, name) in waiting {
            let itemName = "parked/" + name
            guard parkedAt[itemName] == nil, let data = try? InviteLoader.data(place.path(name)) else { continue }
            diagnostics.note("\(place.path(name)): parked by an earlier run; taken now")
            switch try intake.take(name: itemName, path: place.path(name), data: data, floatingZone: floatingZone,
                                   diagnostics: diagnostics) {
            case .skipped, .seen, .bounded: place.remove(name)
            case .item(let item, let key, let inviteID):
                // Parked twice (in two places, or by runs before names were identities): the older copy stands.
                if pending.contains(where: { $0.value.key == key }) {
                    place.remove(name)
                    continue
                }
                pending[item.name] = (key, inviteID)
                parkedAt[item.name] = (place, name)
                items.append(item)
            }
        }
        let messages = (message.map { [(Self.messageName, $0)] } ?? []) + handedOver.map { (Self.handedOverName($0.name), $0.data) }
        for (name, data) in messages {
            switch try intake.take(name: name, path: "standard input", data: data, floatingZone: floatingZone,
                                   diagnostics: diagnostics) {
            case .skipped(let outcome): skipped[name] = .skipped(outcome)
            case .seen(let outcome): skipped[name] = .seen(outcome)
            case .bounded(let reason): skipped[name] = .bounded(reason)
            case .item(let item, let key, let inviteID):
                // Handed over twice at once: the first copy stands for both.
                if let first = pending.first(where: { $0.value.key == key && !$0.key.hasPrefix("parked/") }) {
                    sameAs[name] = first.key
                    continue
                }
                // Delivered again while parked (an MTA that retried): this copy stands for both;
                // the parked one leaves once this one is finished, not before (the run may fail).
                for (parkedName, entry) in pending where entry.key == key && parkedName.hasPrefix("parked/") {
                    pending[parkedName] = nil
                    items.removeAll { $0.name == parkedName }
                    standsFor[item.name, default: []].append(parkedName)
                }
                pending[item.name] = (key, inviteID)
                items.append(item)
            }
        }
        try intake.flush()
        return items
    }

    /// Every item of a run remembered in one commit; the parked ones then leave `parked/`.
    package func finish(_ items: [MergeFinished]) throws {
        try intake.remember(items, pending: pending)
        for item in items {
            removeParked(item.name)
            for parkedItem in standsFor[item.name] ?? [] { removeParked(parkedItem) }
        }
    }

    /// Removes the parked copy an item of the run came from, if it came from one.
    private func removeParked(_ itemName: String) {
        guard let (place, name) = parkedAt[itemName] else { return }
        place.remove(name)
    }

    package func unlock() { lock?.unlock() }
}
