import CoolcalSupport
import Foundation
import CoolcalModel

/// The local mail transfer command (`sendmail -t` and its kin: msmtp, Postfix, Exim):
/// run without a shell, the message on its standard input, recipients read from the
/// headers.
public struct Sendmail: Sendable {
    /// What runs when nothing is configured.
    public static let defaultCommand = "/usr/sbin/sendmail -t -oi"
    /// A sendmail that takes longer than this is stopped; the message stays queued.
    public static let timeout: TimeInterval = 120

    /// The program and its arguments, the command split on whitespace.
    public let arguments: [String]
    /// The resolved program.
    public let executable: String
    /// The environment it runs with (PATH included).
    public let environment: [String: String]

    /// What one attempt did.
    public enum Outcome: Equatable, Sendable {
        case sent
        /// Exit 75 (EX_TEMPFAIL), or stopped after `timeout`: try again later.
        case retryLater(String)
        /// Any other failure: do not send again by itself.
        case failed(String)
    }

    /// The command is missing or not executable (a configuration error).
    public struct Missing: StatusError, CustomStringConvertible, Equatable {
        public var command: String
        public var reason: String
        public var description: String { "sendmail '\(command)': \(reason)" }
        /// 74; `AnswerStore.sendmail()` says it as a `ConfigError` (78).
        public var exitStatus: ExitStatus { .ioError }
    }

    /// Splits `command` on whitespace and finds its program (a path, or a name looked
    /// up in `PATH`).
    public init(command: String, environment: [String: String]) throws(Missing) {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        guard let program = words.first else { throw Missing(command: command, reason: "empty command") }
        self.arguments = words
        self.environment = environment
        if program.contains("/") {
            guard Self.can(program, X_OK), !Self.isDirectory(program) else {
                throw Missing(command: command, reason: "\(program): " + (Self.can(program, F_OK) ? "not executable" : "no such file"))
            }
            executable = program
        } else {
            let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
            guard let found = path.split(separator: ":").map({ "\($0)/\(program)" })
                .first(where: { Self.can($0, X_OK) && !Self.isDirectory($0) }) else {
                throw Missing(command: command, reason: "\(program): not found in PATH")
            }
            executable = found
        }
    }

    /// `access(path, mode) == 0`.
    private static func can(_ path: String, _ mode: Int32) -> Bool {
        (try? SystemCalls.access(path, mode)) != nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The command as configured, for messages.
    public var shown: String { arguments.joined(separator: " ") }

    /// Runs the command once with `message` on its standard input.
    public func send(_ message: String) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = errors
        do {
            try process.run()
        } catch {
            return .failed("\(shown): cannot run it: \(error.localizedDescription)")
        }
        // Its output is read while the message is written: a chatty sendmail must not block.
        let collected = OutputBox()
        let output = errors.fileHandleForReading
        let reader = Thread {
            collected.set(output.readDataToEndOfFile())
        }
        reader.start()
        // SIGKILL: a sendmail may have inherited a mask that blocks SIGTERM.
        let timer = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.timeout, execute: timer)
        // A sendmail that exits without reading gives EPIPE, not SIGPIPE: its status tells.
        Self.writeWithoutSIGPIPE(input.fileHandleForWriting.fileDescriptor, Array(message.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        timer.cancel()
        let said = String(decoding: collected.wait().prefix(2000), as: UTF8.self)
        let detail = said.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        if process.terminationReason == .uncaughtSignal {
            return .retryLater("\(shown): stopped by signal \(process.terminationStatus)" + (detail.isEmpty ? "" : ": \(detail)"))
        }
        switch process.terminationStatus {
        case 0: return .sent
        case 75: return .retryLater("\(shown): exit 75 (temporary failure)" + (detail.isEmpty ? "" : ": \(detail)"))
        case let status: return .failed("\(shown): exit \(status)" + (detail.isEmpty ? "" : ": \(detail)"))
        }
    }
}

extension Sendmail {
    /// Writes all of `bytes`, stopping at the first error. SIGPIPE is blocked for this
    /// thread meanwhile and a pending one consumed before the mask is restored: in a
    /// process that does not ignore it (a test runner, a host app) a sendmail that
    /// closes its input early must not kill the caller.
    package static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: [UInt8]) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) != 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                // EINTR is retried inside; any other error, or nothing written, stops.
                guard let n = try? SystemCalls.write(fd, UnsafeRawBufferPointer(start: base + offset, count: raw.count - offset)),
                      n > 0 else { return }
                offset += n
            }
        }
    }
}

/// The output of a sendmail, handed from its reading thread to the waiting one.
private final class OutputBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func set(_ value: Data) {
        data = value
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
