import Testing
@testable import CoolcalAnswering

/// Answering/AcceptFrom: the `accept-from` words, addresses and domains.
@Suite struct AcceptFromTests {
    @Test func parsesTheFourKinds() {
        #expect(AcceptFrom("anyone") == .anyone)
        #expect(AcceptFrom("Known") == .known)
        #expect(AcceptFrom("mailto:Boss@Corp.Example") == .address("boss@corp.example"))
        #expect(AcceptFrom("@Corp.Example") == .domain("corp.example"))
        for bad in ["", "@", "everybody", "a@b@c", "@a@b", "boss @corp.example", "@"] { #expect(AcceptFrom(bad) == nil, "\(bad)") }
    }

    @Test func aDomainAdmitsOnlyThatDomain() {
        let rule = AcceptFrom.domain("corp.example")
        #expect(rule.admitsOutright("dan@corp.example"))
        #expect(!rule.admitsOutright("dan@evilcorp.example"))
        #expect(!rule.admitsOutright("dan@sub.corp.example"))
        #expect(!AcceptFrom.known.admitsOutright("dan@corp.example"), "known asks who is known")
        #expect(AcceptFrom.anyone.admitsOutright("x@y.example"))
    }
}
