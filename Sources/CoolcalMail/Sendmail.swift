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
    /// Exit statuses that may pass, with sysexits' names: the mail server unavailable,
    /// a dropped or stalled connection, a temporary failure, a protocol error.
    public static let transientStatuses: [Int32: String] = [
        69: "service unavailable", 74: "I/O error", 75: "temporary failure", 76: "remote protocol error",
    ]
    /// How long, in all this run, its output is read after it exited: 2 s once, not 2 s
    /// a mail, when a process it left behind holds the output open.
    package static let outputGrace = OutputGrace(seconds: 2)

    /// The program and its arguments, the command split on whitespace.
    public let arguments: [String]
    /// The resolved program.
    public let executable: String
    /// The environment it runs with (PATH included).
    public let environment: [String: String]

    /// What one attempt did.
    public enum Outcome: Equatable, Sendable {
        case sent
        /// A failure that may pass (`transientStatuses`, a signal, or stopped after
        /// `timeout`): try again later.
        case retryLater(String)
        /// Any other failure (a usage, data, address or configuration error): do not
        /// send again by itself.
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

    /// Runs the command once with `message` on its standard input, in a process group of
    /// its own (`ChildProcess`): at `timeout` the whole group is killed, and a process it
    /// leaves behind does not hold the answer.
    public func send(_ message: String) -> Outcome {
        let finished: ChildProcess.Finished
        do throws(Errno) {
            finished = try ChildProcess.run(executable, arguments: Array(arguments.dropFirst()), environment: environment,
                                            input: Data(message.utf8), timeout: Self.timeout, outputGrace: Self.outputGrace)
        } catch {
            return .failed("\(shown): cannot run it: \(error)")
        }
        let lines = String(decoding: finished.output.prefix(2000), as: UTF8.self).split(whereSeparator: \.isNewline)
        let detail = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
        let said = detail.isEmpty ? "" : ": \(detail)"
        if let signal = finished.signal {
            let why = finished.timedOut ? "stopped after \(Int(Self.timeout)) s" : "stopped by signal \(signal)"
            return .retryLater("\(shown): \(why)\(said)")
        }
        let status = finished.status ?? 1
        if status == 0 { return .sent }
        if let name = Self.transientStatuses[status] { return .retryLater("\(shown): exit \(status) (\(name))\(said)") }
        return .failed("\(shown): exit \(status)\(said)")
    }
}
