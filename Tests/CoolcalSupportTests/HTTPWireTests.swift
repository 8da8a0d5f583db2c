import CoolcalSupport
import Foundation
import Glibc
import Testing

/// The frames coolcal and its HTTP helper exchange (`HTTPWire`, `HTTPFrameReader`): the
/// bytes as written by hand here, what is refused, and a frame read over a real pipe.
@Suite struct HTTPWireTests {
    static let request = HTTPRequest(
        method: "PUT", url: "http://127.0.0.1:5232/alice/cal/a.ics",
        headers: [HTTPHeader("Content-Type", "text/calendar"), HTTPHeader("If-None-Match", "*")],
        body: Data("BEGIN:VCALENDAR\r\n\0\u{FF}".utf8), requestTimeout: 5, resourceTimeout: 60, limit: 4096, overflow: .cancel)

    @Test func aRequestIsFramedFieldByField() {
        let fields = "method 3\nPUT\nurl 37\nhttp://127.0.0.1:5232/alice/cal/a.ics\nheader 27\nContent-Type: text/calendar\n"
            + "header 16\nIf-None-Match: *\nrequest-timeout 3\n5.0\nresource-timeout 4\n60.0\nlimit 4\n4096\n"
            + "overflow 6\ncancel\nbody 20\nBEGIN:VCALENDAR\r\n\0\u{FF}\n"
        let expected = Data("COOLCAL-HTTP/1 \(Data(fields.utf8).count)\n\(fields)".utf8)
        #expect(HTTPWire.encode(Self.request) == expected)
    }

    @Test func aRequestReadsBackAsItWasSent() throws {
        let frame = HTTPWire.encode(Self.request)
        let newline = try #require(frame.firstIndex(of: 0x0A))
        #expect(HTTPWire.frameLength(frame[..<newline]) == frame.count - newline - 1)
        #expect(HTTPWire.request(frame[(newline + 1)...]) == Self.request)
    }

    @Test func aReplyReadsBackAsItWasSent() throws {
        var reply = HTTPExchange.Reply()
        reply.status = 207
        reply.etag = "\"abc\""
        reply.contentType = "application/xml; charset=utf-8"
        reply.dav = "1, 2, calendar-access"
        reply.body = Data("<multistatus/>\n\n".utf8)
        reply.overflow = true
        let frame = HTTPWire.encode(reply)
        let newline = try #require(frame.firstIndex(of: 0x0A))
        let back = try #require(HTTPWire.reply(frame[(newline + 1)...]))
        #expect(back.status == 207 && back.etag == "\"abc\"" && back.location == nil && back.dav == "1, 2, calendar-access")
        #expect(back.contentType == "application/xml; charset=utf-8" && back.body == reply.body && back.overflow)
        #expect(back.errorCode == nil && !back.challenged && !back.timedOut)
    }

    /// What is not exactly a frame is refused whole.
    @Test func whatIsNotAFrameIsRefused() {
        let base = "method 3\nGET\nurl 18\nhttp://example.org\nrequest-timeout 1\n5\nresource-timeout 2\n60\nlimit 1\n0\n"
            + "overflow 8\ntruncate\n"
        #expect(HTTPWire.request(Data(base.utf8)) != nil, "the base case is a request")
        let refused = [
            base + "header 14\nX-A: b\r\nX-C: d\n",          // a header that would split into two
            base + "header 4\nX-A:\n",                     // no ": "
            base + "header 7\nX A: b\n",                  // a name that is no token
            base + "method 3\nPUT\n",                      // a field twice
            base + "cookie 1\nx\n",                        // a field nobody knows
            base + "body 5\nabc\n",                        // a length past the end
            base + "body 2\nabc\n",                        // no newline where the length ends
            String(base.dropFirst("method 3\nGET\n".count)), // no method
            base.replacingOccurrences(of: "limit 1\n0", with: "limit 2\n-1"),
            base.replacingOccurrences(of: "overflow 8\ntruncate", with: "overflow 4\nkeep"),
        ]
        for text in refused { #expect(HTTPWire.request(Data(text.utf8)) == nil, "\(text.debugDescription)") }
        #expect(HTTPWire.reply(Data("status 3\n200\nstatus 3\n404\n".utf8)) == nil, "a reply field twice")
        #expect(HTTPWire.reply(Data("status 2\nOK\n".utf8)) == nil, "a status that is no number")
        #expect(HTTPWire.frameLength(Data("COOLCAL-HTTP/2 10".utf8)) == nil)
        #expect(HTTPWire.frameLength(Data("COOLCAL-HTTP/1 \(HTTPWire.maxFrame + 1)".utf8)) == nil)
        #expect(HTTPWire.frameLength(Data("COOLCAL-HTTP/1 -1".utf8)) == nil)
    }

    /// Two frames written in pieces that cut them anywhere are read as two frames; then the
    /// pipe's end; a pipe with nothing in it times out at the deadline.
    @Test func framesAreReadWhateverThePiecesOverAPipe() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        var reply = HTTPExchange.Reply()
        reply.status = 204
        let bytes = HTTPWire.encode(Self.request) + HTTPWire.encode(reply)
        let writeEnd = ends[1]
        let writer = Thread {
            var at = 0
            for size in [1, 7, 15, 100, 3] + Array(repeating: 50, count: bytes.count / 50 + 1) where at < bytes.count {
                let piece = bytes[at..<min(bytes.count, at + size)]
                _ = piece.withUnsafeBytes { try? SystemCalls.writeAll(writeEnd, $0) }
                at += piece.count
                usleep(1000)
            }
            close(writeEnd)
        }
        writer.start()
        var reader = HTTPFrameReader()
        let far = ContinuousClock.now + .seconds(30)
        guard case .frame(let first) = reader.next(from: ends[0], until: far) else { Issue.record("no first frame"); return }
        #expect(HTTPWire.request(first) == Self.request)
        guard case .frame(let second) = reader.next(from: ends[0], until: far) else { Issue.record("no second frame"); return }
        #expect(HTTPWire.reply(second)?.status == 204)
        #expect(reader.next(from: ends[0], until: far) == .ended)

        var quiet: [Int32] = [-1, -1]
        try #require(pipe(&quiet) == 0)
        defer { close(quiet[0]); close(quiet[1]) }
        var waiting = HTTPFrameReader()
        #expect(waiting.next(from: quiet[0], until: ContinuousClock.now + .milliseconds(50)) == .timedOut)
    }

    /// A request far larger than a pipe holds (4 MiB) crosses to the real helper, written
    /// as the helper reads it, and its reply comes back: here, the connection refused.
    @Test func aLargeRequestCrossesThePipeToTheHelper() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let helper = try #require(HTTPHelper.candidates(executable: executable).first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "coolcal-http is not built beside the tests (swift build builds it)")
        #expect(helper.hasSuffix("/coolcal-http"))
        let body = Data(repeating: 0x41, count: 4 << 20)
        let request = HTTPRequest(method: "PUT", url: "http://127.0.0.1:1/big.ics", body: body, requestTimeout: 5,
                                  resourceTimeout: 10, limit: 1024, overflow: .cancel)
        let reply = try #require(HTTPExchange.send(request))
        #expect(reply.failure(requestTimeout: 5) == "connection refused")
        #expect(reply.helperProblem == nil && reply.status == nil)
    }

    @Test func theHelperIsLookedForBesideTheProgramThenInLibexec() {
        #expect(HTTPHelper.candidates(executable: "/usr/bin/coolcal") == ["/usr/bin/coolcal-http", "/usr/libexec/coolcal/coolcal-http"])
        #expect(HTTPHelper.candidates(executable: "/home/a/src/coolcal/.build/debug/coolcal")
                == ["/home/a/src/coolcal/.build/debug/coolcal-http", "/home/a/src/coolcal/.build/libexec/coolcal/coolcal-http"])
    }
}
