import CoolcalModel

/// Options and operands of one command line, checked against a `CommandSpec`.
package struct ParsedArguments {
    /// The command they belong to, for usage messages.
    package var command: String
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var operands: [String] = []

    package func has(_ flag: Flag) -> Bool { flags.contains(flag.spec.long) }

    /// The option's last value, read as its type; a usage error when it is not one.
    package func value<V: ArgumentValue>(_ option: Option<V>) throws -> V? {
        guard let raw = values[option.spec.long]?.last else { return nil }
        return try read(raw, option)
    }

    /// Every value of a repeatable option, in order.
    package func all<V: ArgumentValue>(_ option: Option<V>) throws -> [V] {
        try (values[option.spec.long] ?? []).map { try read($0, option) }
    }

    private func read<V: ArgumentValue>(_ raw: String, _ option: Option<V>) throws -> V {
        guard let value = V(argument: raw) else {
            throw UsageError(V.invalid(raw, option: option.spec.long), command: command)
        }
        return value
    }

    /// A usage error for this command.
    package func usage(_ message: String) -> UsageError { UsageError(message, command: command) }

    /// Refuses `-` (standard input) among `operands`.
    package func refuseStdin(_ operands: ArraySlice<String>, _ message: String) throws {
        if operands.contains("-") { throw usage(message) }
    }
}

/// Parses `--name value`, `--name=value`, `-x`, `--` (ends options) and `-` (stdin,
/// an operand), rejecting unknown options with a suggestion.
package enum ArgumentParser {
    package static func parse(_ args: [String], spec: CommandSpec) throws -> ParsedArguments {
        var result = ParsedArguments(command: spec.name)
        var i = 0
        var optionsDone = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsDone || arg == "-" || !arg.hasPrefix("-") {
                result.operands.append(arg)
                continue
            }
            if arg == "--" { optionsDone = true; continue }
            let (option, inline) = try lookup(arg, spec)
            if option.value == nil {
                if inline != nil { throw UsageError("option '--\(option.long)' takes no value", command: spec.name) }
                if !result.flags.insert(option.long).inserted {
                    throw UsageError("option '--\(option.long)' given more than once", command: spec.name)
                }
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if i < args.count {
                value = args[i]
                i += 1
            } else {
                throw UsageError("option '--\(option.long)' needs a value (\(option.value ?? "VALUE"))", command: spec.name)
            }
            if !option.repeatable, result.values[option.long] != nil {
                throw UsageError("option '--\(option.long)' given more than once", command: spec.name)
            }
            result.values[option.long, default: []].append(value)
        }
        return result
    }

    private static func lookup(_ arg: String, _ spec: CommandSpec) throws -> (OptionSpec, String?) {
        if arg.hasPrefix("--") {
            let body = arg.dropFirst(2)
            let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let inline = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
            if let option = spec.options.first(where: { $0.long == name }) { return (option, inline) }
            var message = "unknown option '--\(name)'"
            if let near = suggestion(for: name, among: spec.options.map(\.long)) {
                message += "; did you mean '--\(near)'?"
            }
            throw UsageError(message, command: spec.name)
        }
        let letters = Array(arg.dropFirst())
        if letters.count == 1, let option = spec.options.first(where: { $0.short == letters[0] }) {
            return (option, nil)
        }
        throw UsageError("unknown option '\(arg)'", command: spec.name)
    }
}
