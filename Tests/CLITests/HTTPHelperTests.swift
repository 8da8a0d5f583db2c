import Foundation
import Testing

/// `coolcal-http`, the program that sends coolcal's HTTP requests: coolcal without it
/// says where it looked; run by hand it says what it is; given what is not a request it
/// refuses it; given one it answers with the frame `HTTPWire` reads (bytes written here).
@Suite struct HTTPHelperTests {
    static var helper: String {
        URL(fileURLWithPath: Binary.path).deletingLastPathComponent().appendingPathComponent("coolcal-http").path
    }

    /// Runs the helper with `input` on its standard input.
    static func helper(_ arguments: [String] = [], input: Data) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output, String(decoding: errors, as: UTF8.self))
    }

    /// A copy of coolcal (a hard link) in a folder without the helper: the request fails as
    /// an unreachable server does (75), naming both places it looked in.
    @Test func withoutTheHelperARequestFailsNamingWhereItLooked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coolcal-alone-\(UUID().uuidString)/bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let alone = folder.appendingPathComponent("coolcal").path
        do { try FileManager.default.linkItem(atPath: Binary.path, toPath: alone) } catch {
            try FileManager.default.copyItem(atPath: Binary.path, toPath: alone)
        }
        let url = "http://127.0.0.1:1/alice/cal/"
        let present = try Binary.run(["events", "--from", "2026-03-01", url])
        #expect(present.status == 75 && present.stderr == "coolcal: error: \(url): cannot reach the server: connection refused\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: alone)
        process.arguments = ["events", "--from", "2026-03-01", url]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "HOME": Binary.home]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let top = folder.deletingLastPathComponent().path
        #expect(process.terminationStatus == 75)
        #expect(errors == "coolcal: error: \(url): cannot reach the server: coolcal-http, coolcal's HTTP helper, is not installed "
                + "(looked for \(top)/bin/coolcal-http and \(top)/libexec/coolcal/coolcal-http)\n")
    }

    @Test func byHandItSaysWhatItIs() throws {
        let run = try Self.helper(["--help"], input: Data())
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderr == "coolcal-http: coolcal's HTTP helper, started by coolcal for its requests to servers;\n"
                + "it reads requests from a pipe and is not run by hand (see coolcal(1), FILES)\n")
    }

    @Test func whatIsNotARequestIsRefusedAndNothingIsSent() throws {
        let run = try Self.helper(input: Data("COOLCAL-HTTP/1 12\nmethod 3\nGET\n".utf8))
        #expect(run.status == 65 && run.stdout.isEmpty && run.stderr == "coolcal-http: what coolcal sent is not a request\n")
        let empty = try Self.helper(input: Data())
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.isEmpty, "its input's end is its own")
    }

    /// Two requests on one input, each answered in turn: a refused connection is URLError's
    /// cannotConnectToHost (-1004), a URL that is not http(s) its badURL (-1000).
    @Test func eachRequestGetsItsReplyFrame() throws {
        func request(_ url: String) -> String {
            let fields = "method 3\nGET\nurl \(url.utf8.count)\n\(url)\nrequest-timeout 1\n5\nresource-timeout 2\n10\n"
                + "limit 4\n4096\noverflow 8\ntruncate\n"
            return "COOLCAL-HTTP/1 \(fields.utf8.count)\n\(fields)"
        }
        let run = try Self.helper(input: Data((request("http://127.0.0.1:1/x") + request("ftp://127.0.0.1/x")).utf8))
        #expect(run.status == 0 && run.stderr.isEmpty)
        let refused = "error 5\n-1004\nbody 0\n\n", bad = "error 5\n-1000\nbody 0\n\n"
        #expect(String(decoding: run.stdout, as: UTF8.self)
                == "COOLCAL-HTTP/1 \(refused.utf8.count)\n\(refused)COOLCAL-HTTP/1 \(bad.utf8.count)\n\(bad)")
    }
}
