import Foundation
import Testing

/// The inbox tells the current state (issue #31): a meeting its organizer cancelled says
/// so in `inbox` and `responses` beside the answer; an answer recorded but never mailed
/// says the organizer was not told and how to tell them; Outlook's long UIDs stay out of
/// one-line listings (the number and title name the entry).
@Suite struct InboxStateTests {
    typealias T = OrganizerBindingTests

    /// Outlook's form: 112 hexadecimal characters.
    static let outlookUID = "040000008200E00074C5B7101A82E00800000000" + String(repeating: "A1B2C3D4", count: 9)

    @Test func aCancellationShowsInInboxAndResponses() throws {
        let b = try HeldMergeTests().box()
        let uid = Self.outlookUID
        #expect(uid.count == 112)
        try b.deliver("1.invite", T.mail(T.message(summary: "Coffee with Jonas", uid: uid), from: "Alice <alice@example.org>"))
        let first = try b.merge()
        #expect(try b.outcomes(first).map { $0["outcome"] as? String } == ["accepted"], "\(first.stdout)\(first.stderr)")
        let state = ["--state", b.root + "/state"]
        let before = try Binary.run(["responses"] + state).stdout
        #expect(before.hasPrefix("✓ Coffee with Jonas  ") && before.contains("  (mailed)\n") && !before.contains("cancelled"), "\(before)")

        try b.deliver("2.cancel", T.mail(T.message(method: "CANCEL", sequence: 1, summary: "Coffee with Jonas", uid: uid),
                                         from: "Alice <alice@example.org>", method: "CANCEL"))
        let second = try b.merge()
        #expect(second.status == 0, "\(second.stderr)")
        let inbox = try Binary.run(["inbox"] + state)
        let lines = inbox.stdout.split(separator: "\n").map(String.init)
        let coffee = lines.filter { $0.contains("Coffee with Jonas") }
        #expect(coffee.contains { $0.contains("✓ Coffee with Jonas") && $0.hasSuffix("(cancelled by the organizer)") }, "\(inbox.stdout)")
        #expect(!inbox.stdout.contains(uid), "a 112-character UID in a one-line listing:\n\(inbox.stdout)")
        let responses = try Binary.run(["responses"] + state)
        #expect(responses.stdout.hasPrefix("✓ Coffee with Jonas  ") && responses.stdout.contains("  (mailed)  (cancelled by the organizer)\n"),
                "\(responses.stdout)")
        let json = try Binary.json(try Binary.run(["responses", "--json"] + state).stdout)
        #expect((json["responses"] as? [[String: Any]])?.map { $0["state"] as? String } == ["cancelled"])
        // `inbox open N` still names the UID, for whoever needs it.
        let number = try #require(coffee.first?.split(separator: " ").first.map(String.init))
        #expect(try Binary.run(["inbox", "open"] + state + [number]).stdout.contains("[id \(uid)]"))
    }

    @Test func anAnswerNotMailedSaysTheOrganizerWasNotTold() throws {
        let b = try HeldMergeTests().box()
        let state = ["--state", b.root + "/state"]
        #expect(try Binary.run(["notify"] + state + ["-"], stdin: T.mail(T.message(), from: "Alice <alice@example.org>")).status == 0)
        let accept = try Binary.run(["accept", "--me", T.me] + state + ["1", b.calendar])
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stdout.hasSuffix("\n  the organizer was not told: 'coolcal reply --accept --send 1' tells them (or 'reply = mail' in the config)\n"),
                "\(accept.stdout)")
        #expect(try Binary.run(["inbox"] + state).stdout.contains("  (organizer not told: coolcal reply --accept --send 1)\n"))
        #expect(try Binary.run(["responses"] + state).stdout.contains("  (organizer not told: coolcal reply --accept --send 1)\n"))
        // Told: the line goes.
        let send = try Binary.run(["reply", "--accept", "--send", "--me", T.me] + state + ["1"], env: ["COOLCAL_SENDMAIL": b.root + "/sendmail"])
        #expect(send.status == 0, "\(send.stderr)")
        #expect(b.mailed().contains("PARTSTAT=ACCEPTED"))
        #expect(!(try Binary.run(["inbox"] + state).stdout.contains("not told")))
    }
}
