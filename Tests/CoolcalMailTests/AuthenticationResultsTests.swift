import Foundation
import Testing
@testable import CoolcalModel
@testable import CoolcalMail

/// Mail/AuthenticationResults (RFC 8601): who wrote the header, each method's result;
/// only the topmost header of a trusted authserv-id counts, and only its dmarc=fail.
@Suite struct AuthenticationResultsTests {
    @Test func readsTheServerAndTheResultsPastCommentsAndQuotes() throws {
        let header = try #require(AuthenticationResults(
            #"MX.Mine.Example 1; spf=pass (sender "x;y" ok) smtp.mailfrom=a.example; dkim=fail (bad sig) header.d=a.example; DMARC/1=FAIL (p=reject; dis=none) header.from=a.example"#))
        #expect(header.server == "mx.mine.example")
        #expect(header.results.map(\.method) == ["spf", "dkim", "dmarc"])
        #expect(header.results.map(\.result) == ["pass", "fail", "fail"])
        // A quoted authserv-id, and "none" (no results).
        #expect(AuthenticationResults(#""mx.quoted.example"; none"#)?.server == "mx.quoted.example")
        #expect(AuthenticationResults(#"mx.x; none"#)?.results.isEmpty == true)
        #expect(AuthenticationResults("   ") == nil)
    }

    @Test func onlyTheTopmostTrustedHeaderCounts() {
        let fail = "mx.mine.example; dmarc=fail header.from=a.example"
        let pass = "mx.mine.example; dmarc=pass header.from=a.example"
        let other = "mx.other.example; dmarc=fail header.from=a.example"
        #expect(AuthenticationResults.dmarcFailed([fail], trusted: ["MX.MINE.EXAMPLE"]))
        #expect(!AuthenticationResults.dmarcFailed([fail], trusted: []), "nothing trusted, nothing counts")
        #expect(!AuthenticationResults.dmarcFailed([other], trusted: ["mx.mine.example"]), "another server's header is ignored")
        #expect(!AuthenticationResults.dmarcFailed([other, pass, fail], trusted: ["mx.mine.example"]), "the topmost trusted one: pass")
        #expect(AuthenticationResults.dmarcFailed([other, fail, pass], trusted: ["mx.mine.example"]))
        // SPF and DKIM failures alone do not hold a message (forwarding breaks them).
        #expect(!AuthenticationResults.dmarcFailed(["mx.mine.example; spf=fail; dkim=fail; dmarc=pass"], trusted: ["mx.mine.example"]))
        // A comment that looks like a result is a comment.
        #expect(!AuthenticationResults.dmarcFailed(["mx.mine.example; dmarc=pass (was dmarc=fail)"], trusted: ["mx.mine.example"]))
    }
}
