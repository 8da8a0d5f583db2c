import Foundation
import Testing
@testable import CoolcalModel

/// Issue #29: what a server echoes back loses every credential before it is stored.
@Suite struct SecretTextTests {
    @Test(arguments: [
        ("Authorization: Basic YWxpY2U6c2VjcmV0", "Authorization: ***"),
        ("{\"authorization\": \"Bearer abc.def-ghi\"}", "{\"authorization\": \"***\"}"),
        ("token was Bearer eyJhbGciOiJIUzI1NiJ9.e30 sorry", "token was Bearer *** sorry"),
        ("see https://alice:pw@dav.example/cal/", "see https://***@dav.example/cal/"),
        ("the password hunter2 is wrong", "the password *** is wrong"),
        ("nothing secret here: HTTP 400", "nothing secret here: HTTP 400"),
    ])
    func credentialsAreReplaced(_ text: String, _ expected: String) {
        #expect(SecretText.redact(text, secrets: ["hunter2"]) == expected)
    }
}
