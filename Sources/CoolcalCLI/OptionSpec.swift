/// One option of a command, as parsing, help, completions and the man-page test see it.
public struct OptionSpec: Sendable, Equatable {
    /// What a shell offers for the option's value.
    public enum Completion: Sendable, Equatable { case none, file, directory }

    public var long: String
    public var short: Character?
    /// The value's name in help (`ZONE`), or nil for a flag.
    public var value: String?
    public var repeatable: Bool
    public var help: String
    /// The values it takes, where they are a fixed list (for completions).
    public var choices: [String]?
    public var completion: Completion

    package init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false,
         choices: [String]? = nil, completion: Completion = .file, help: String) {
        self.long = long
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.help = help
        self.choices = choices
        self.completion = value == nil ? .none : completion
    }
}

/// A value an option takes, read from its text (swift-argument-parser's
/// `ExpressibleByArgument`): nil means the text is not one; `invalid` says why.
package protocol ArgumentValue {
    init?(argument: String)
    /// The message when `text` given to `--option` is not a value.
    static func invalid(_ text: String, option: String) -> String
    /// A fixed list of values, for help and completions.
    static var choices: [String]? { get }
}

extension ArgumentValue {
    package static var choices: [String]? { nil }
}

/// An option with a typed value, declared once: its spec and how its value is read.
package struct Option<Value: ArgumentValue>: Sendable {
    package let spec: OptionSpec

    package init(_ long: String, short: Character? = nil, value: String, repeatable: Bool = false,
         completion: OptionSpec.Completion = .file, help: String) {
        spec = OptionSpec(long, short: short, value: value, repeatable: repeatable, choices: Value.choices,
                          completion: completion, help: help)
    }
}

/// An option without a value.
package struct Flag: Sendable {
    package let spec: OptionSpec

    package init(_ long: String, short: Character? = nil, help: String) {
        spec = OptionSpec(long, short: short, help: help)
    }
}

extension String: ArgumentValue {
    package init?(argument: String) { self = argument }
    package static func invalid(_ text: String, option: String) -> String { "--\(option) '\(text)' is not valid" }
}
