import Foundation
import CoolcalInvite
import CoolcalModel
import CoolcalSupport

/// Burst hand-over (issue #48): a `process` that finds the run lock held hands its message
/// to the holder instead of waiting to rewrite the calendar itself, so that one rewrite
/// answers a burst of deliveries. The place is `STATE/handover/KEY`, `KEY` a hash of the
/// run's effective settings (calendars, `me`, policy, accept-from, reply, zone, buffer,
/// the config's values): a holder answers only what was handed over under its own
/// settings. Three folders:
///
/// - `new/`: the messages waiting, each written whole by `AtomicFile` (a dot-named
///   temporary file, fsynced, renamed; 0600) as `IDENTITY.PID.coolcal` — the message's
///   identity (`ParkedMessages.identity`) and the waiter's pid;
/// - `claimed/`: those a holder took. A rename claims, so a message is taken by one
///   process only: the holder (`claim`) or its waiter (`withdraw`, before answering it
///   itself), never both;
/// - `outcomes/`: what the holder did with each, under the same name, for its waiter to
///   say (`HandedOverOutcome`).
///
/// A holder serves (takes messages handed over) while it holds `serving.lock` there
/// (`flock`, so a killed holder serves no more); a waiter hands over only while one
/// does, else it waits for the run lock as before.
///
/// A holder killed between claiming and recording leaves its claims in `claimed/`:
/// the next process to take the run lock puts them back in `new/` (`recoverClaimed`),
/// where their waiters (or the next holder) find them. A waiter keeps its message's
/// bytes until it has an outcome, so nothing handed over is lost.
package struct HandOverPlace: Sendable {
    package let directory: String

    package init(stateDirectory: String, key: String) {
        directory = stateDirectory + "/handover/" + key
    }

    private var waiting: String { directory + "/new" }
    private var claimed: String { directory + "/claimed" }
    private var outcomes: String { directory + "/outcomes" }

    /// The holder's: held while it serves (nil when the place cannot be made; then it
    /// answers only its own, and nobody hands over). Waited for up to a second: a
    /// waiter's `isServed` holds it for a moment.
    package func serve() -> FileLock? {
        guard (try? SystemCalls.makeDirectories(directory, 0o700)) != nil else { return nil }
        return try? FileLock(exclusive: directory + "/serving.lock", permissions: 0o600, timeout: 1)
    }

    /// Whether a holder of these settings serves now (its `serving.lock` is held).
    package var isServed: Bool {
        guard FileStatus.of(directory + "/serving.lock") != nil else { return false }
        do throws(FileLock.Failure) {
            try FileLock(exclusive: directory + "/serving.lock", permissions: 0o600, timeout: 0).unlock()
            return false
        } catch {
            return error == .wouldBlock
        }
    }

    /// Hands `data` over: writes it into `new/`; its name there.
    package func hand(_ data: Data, pid: Int32 = getpid()) throws -> String {
        for folder in [waiting, claimed, outcomes] {
            do throws(SystemCallError) {
                try SystemCalls.makeDirectories(folder, 0o700)
            } catch {
                throw WriteError.errno(error, path: folder, doing: "cannot hand the message over")
            }
        }
        let name = "\(ParkedMessages.identity(data)).\(pid).coolcal"
        do {
            try AtomicFile.write(data, to: waiting + "/" + name, keeping: nil, newMode: 0o600)
        } catch let error as WriteError {
            throw error.reworded("cannot hand the message over")
        }
        return name
    }

    /// Takes a message handed over back (its waiter answers it itself): true when it
    /// was still waiting, false when a holder claimed it (or it is gone).
    package func withdraw(_ name: String) -> Bool {
        (try? SystemCalls.unlink(waiting + "/" + name)) != nil
    }

    /// Claims every message waiting (oldest first): each name and its bytes. One another
    /// process claimed or withdrew meanwhile is not in it.
    package func claim() -> [(name: String, data: Data)] {
        var taken: [(name: String, data: Data)] = []
        let entries = ((try? SystemCalls.listDirectory(waiting)) ?? []).map(\.name).filter { !$0.hasPrefix(".") }
        let oldestFirst = entries.map { ($0, FileStatus.of(waiting + "/" + $0)?.modified ?? .distantPast) }.sorted { $0.1 < $1.1 }
        for (name, _) in oldestFirst {
            guard (try? SystemCalls.rename(waiting + "/" + name, claimed + "/" + name)) != nil else { continue }
            guard let data = try? InviteLoader.data(claimed + "/" + name) else {
                unclaim(name)
                continue
            }
            taken.append((name, data))
        }
        return taken
    }

    /// Puts a claimed message back for its waiter (the holder could not answer it).
    package func unclaim(_ name: String) {
        try? SystemCalls.rename(claimed + "/" + name, waiting + "/" + name)
    }

    /// Puts back what a holder killed before recording left claimed. Only for the run
    /// lock's holder: no other holder is alive then.
    package func recoverClaimed() {
        for entry in (try? SystemCalls.listDirectory(claimed)) ?? [] where !entry.name.hasPrefix(".") { unclaim(entry.name) }
    }

    /// Records what became of a claimed message, for its waiter; the claim ends.
    package func record(_ outcome: HandedOverOutcome, for name: String) throws {
        let data = try JSONEncoder().encode(outcome)
        try AtomicFile.write(data, to: outcomes + "/" + name, keeping: nil, newMode: 0o600, syncingDirectory: false)
        try? SystemCalls.unlink(claimed + "/" + name)
    }

    /// The outcome recorded for `name`, nil while there is none.
    package func outcome(_ name: String) -> HandedOverOutcome? {
        guard FileStatus.of(outcomes + "/" + name) != nil, let data = try? InviteLoader.data(outcomes + "/" + name) else { return nil }
        return try? JSONDecoder().decode(HandedOverOutcome.self, from: data)
    }

    /// Removes an outcome once said, and any a waiter gone before reading it left over an
    /// hour ago.
    package func removeOutcome(_ name: String, now: Date = Date()) {
        try? SystemCalls.unlink(outcomes + "/" + name)
        for entry in (try? SystemCalls.listDirectory(outcomes)) ?? [] {
            if let modified = FileStatus.of(outcomes + "/" + entry.name)?.modified, now.timeIntervalSince(modified) > 3600 {
                try? SystemCalls.unlink(outcomes + "/" + entry.name)
            }
        }
    }
}

/// What a holder did with a message handed over to it, as its waiter says it: the outcome
/// line's two parts and the `--json` fields.
package struct HandedOverOutcome: Codable, Equatable, Sendable {
    package var word: String
    package var detail: String
    package var inviteID: String?
    package var title: String?

    package init(word: String, detail: String, inviteID: String?, title: String?) {
        self.word = word
        self.detail = detail
        self.inviteID = inviteID
        self.title = title
    }
}
