import Foundation
import Testing

// MARK: - Rows

enum CorpusInput: Sendable {
    case none
    /// A file under Tests/Corpus.
    case corpus(String)
    /// A file written by the test, named so.
    case generated(String, @Sendable () -> Data)

    var name: String {
        switch self {
        case .none: ""
        case .corpus(let path): (path as NSString).lastPathComponent
        case .generated(let name, _): name
        }
    }

    var corpusPath: String? {
        if case .corpus(let path) = self { return path }
        return nil
    }
}

enum CorpusCommand: Sendable {
    case conflicts       // conflicts FILE work.ics          (FILE: the invitation)
    case conflictsWith   // conflicts invite.json FILE       (FILE: a calendar)
    case events          // events --from 2022-08-20 --to 2022-08-22 FILE
    case eventsJSON      // the same with --json
    case accept          // accept FILE work.ics
    case acceptInto      // accept invite.json FILE
    case notify          // notify FILE
    case args([String])  // as given; {file} and {dir} substituted

    func arguments(_ file: String) -> [String] {
        switch self {
        case .conflicts: ["conflicts", file, "work.ics"]
        case .conflictsWith: ["conflicts", "invite.json", file]
        case .events: ["events", "--from", "2022-08-20", "--to", "2022-08-22", file]
        case .eventsJSON: ["events", "--json", "--from", "2022-08-20", "--to", "2022-08-22", file]
        case .accept: ["accept", file, "work.ics"]
        case .acceptInto: ["accept", "invite.json", file]
        case .notify: ["notify", file]
        case .args(let args): args
        }
    }
}

/// What may change in the directory.
enum CorpusWrites: Sendable {
    case nothing
    /// Only `state/` (notify records the invitation, reads set the badge).
    case state
    /// The named calendar may gain the invitation's one VEVENT, and `state/` may change.
    case acceptedInto(String)
}

enum CorpusSetup: Sendable {
    var corpusPath: String? {
        switch self {
        case .stateFile(let path), .stateDB(let path): path
        case .none, .stateDBDirectory: nil
        }
    }

    case none
    /// This corpus file is copied to `state`, where the state directory should be.
    case stateFile(String)
    /// This corpus file is copied to `state/state.db`.
    case stateDB(String)
    /// `state/state.db` is a directory.
    case stateDBDirectory
}

/// An expectation on standard output or standard error; `{file}` and `{dir}` are substituted.
indirect enum CorpusText: Sendable, CustomStringConvertible {
    case any
    case empty
    case exact(String)
    case prefix(String)
    case contains(String)
    case lacks(String)
    /// Valid JSON whose every "start", "end" and "recurrence_id" string is YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ.
    case jsonTimes
    case all([CorpusText])

    static func error(_ message: String) -> CorpusText { .exact("coolcal: error: {file}: \(message)\n") }
    static func warning(_ message: String) -> CorpusText { .exact("coolcal: warning: {file}: \(message)\n") }
    static func usage(_ message: String, _ command: String) -> CorpusText {
        let usage = switch command {
        case "conflicts": "coolcal conflicts [options] INVITE [CAL...]"
        case "events": "coolcal events [options] [CAL...]"
        case "accept": "coolcal accept [options] INVITE [CAL...]"
        default: "coolcal \(command) [options]"
        }
        return .exact("coolcal: error: \(message)\nUsage: \(usage)\nSee 'coolcal help \(command)'.\n")
    }

    func matches(_ text: String, _ fill: (String) -> String) -> Bool {
        switch self {
        case .any: true
        case .empty: text.isEmpty
        case .exact(let s): text == fill(s)
        case .prefix(let s): text.hasPrefix(fill(s))
        case .contains(let s): text.contains(fill(s))
        case .lacks(let s): !text.contains(fill(s))
        case .jsonTimes: Self.timesAreWellFormed(text)
        case .all(let list): list.allSatisfy { $0.matches(text, fill) }
        }
    }

    var description: String {
        switch self {
        case .any: "anything"
        case .empty: "nothing"
        case .exact(let s): "exactly \(s.debugDescription)"
        case .prefix(let s): "a text starting \(s.debugDescription)"
        case .contains(let s): "a text containing \(s.debugDescription)"
        case .lacks(let s): "a text without \(s.debugDescription)"
        case .jsonTimes: "JSON with well-formed times"
        case .all(let list): list.map(\.description).joined(separator: " and ")
        }
    }

    private static func timesAreWellFormed(_ text: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return false }
        func ok(_ value: String) -> Bool {
            let d = "[0-9]"
            let date = "^\(d){4}-\(d){2}-\(d){2}$", time = "^\(d){4}-\(d){2}-\(d){2}T\(d){2}:\(d){2}:\(d){2}Z$"
            return value.range(of: date, options: .regularExpression) != nil
                || value.range(of: time, options: .regularExpression) != nil
        }
        func walk(_ value: Any) -> Bool {
            if let dict = value as? [String: Any] {
                for (key, item) in dict {
                    if ["start", "end", "recurrence_id"].contains(key), let s = item as? String, !ok(s) { return false }
                    if !walk(item) { return false }
                }
            } else if let array = value as? [Any] {
                return array.allSatisfy(walk)
            }
            return true
        }
        return walk(object)
    }
}

struct CorpusCase: Sendable, CustomTestStringConvertible {
    var input: CorpusInput
    var command: CorpusCommand
    var status: Int32
    var stderr: CorpusText
    var stdout: CorpusText
    var writes: CorpusWrites
    var setup: CorpusSetup
    /// Set on rows that encode the right behaviour coolcal does not have yet: the row
    /// must fail (it runs as a known issue) until the bug is fixed.
    var bug: String?

    init(_ input: CorpusInput, _ command: CorpusCommand, _ status: Int32, stderr: CorpusText = .empty,
         stdout: CorpusText? = nil, writes: CorpusWrites = .nothing, setup: CorpusSetup = .none,
         bug: String? = nil) {
        self.input = input
        self.command = command
        self.status = status
        self.stderr = stderr
        // Nothing on standard output with an error, unless the row says otherwise.
        self.stdout = stdout ?? (status >= 64 ? .empty : .any)
        self.writes = writes
        self.setup = setup
        self.bug = bug
    }

    var testDescription: String {
        let args = command.arguments(input.name.isEmpty ? "-" : input.name).joined(separator: " ")
        return "coolcal \(args) → \(status)"
    }
}
