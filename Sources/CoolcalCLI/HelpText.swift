/// Help generated from `CommandTable`.
package enum HelpText {
    package static let version = "coolcal 0.1.0"

    package static func overview() -> String {
        var out = "coolcal — does an invitation fit your calendar?\n\n"
        out += "Usage: coolcal COMMAND [options] ARGS...\n\nCommands:\n"
        for spec in CommandTable.all {
            out += "  " + spec.name.padding(toLength: 13, withPad: " ", startingAt: 0) + spec.summary + "\n"
        }
        out += "\nOptions:\n  -h, --help   show this help\n  --version    show the version\n"
        out += "\nExit status: 0 free or done, 1 busy (not accepted), 64 usage, 65 bad data, 66 missing input,\n"
        out += "73 cannot write, 74 I/O error, 75 locked, changed or server down (try again),\n"
        out += "77 server refused the credentials, 78 bad config.\n"
        out += "See 'coolcal help COMMAND' for one command, and 'man coolcal' for the full reference.\n"
        return out
    }

    package static func command(_ spec: CommandSpec) -> String {
        var out = "Usage: \(spec.usage)\n\n\(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst()).\n\nOptions:\n"
        for option in spec.options {
            var left = option.short.map { "-\($0), " } ?? "    "
            left += "--\(option.long)" + (option.value.map { " \($0)" } ?? "")
            // A label longer than the column keeps all of it, and two spaces.
            out += "  " + left.padding(toLength: max(24, left.count + 2), withPad: " ", startingAt: 0) + option.help + "\n"
        }
        out += "\nExamples:\n" + spec.examples.map { "  \($0)\n" }.joined()
        return out
    }

    package static func usageLine(_ command: String?) -> String {
        if let command, let spec = CommandTable.command(named: command) {
            return "Usage: \(spec.usage)\nSee 'coolcal help \(command)'.\n"
        }
        return "Usage: coolcal COMMAND [options] ARGS...\nSee 'coolcal help'.\n"
    }
}
