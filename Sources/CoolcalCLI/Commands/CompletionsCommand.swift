import CoolcalModel

/// `coolcal completions bash|zsh|fish`: a completion script made from `CommandTable`.
package struct CompletionsCommand: CommandUnit, Equatable {
    package static let spec = CommandSpec(
        name: "completions",
        usage: "coolcal completions bash|zsh|fish",
        summary: "print a shell completion script",
        options: [],
        examples: [
            "coolcal completions bash > ~/.local/share/bash-completion/completions/coolcal",
            "coolcal completions zsh > ~/.zfunc/_coolcal",
            "coolcal completions fish > ~/.config/fish/completions/coolcal.fish",
        ],
        operands: .words(Shell.allCases.map(\.rawValue)))

    package var common: CommonOptions
    package var shell: Shell

    package init(_ p: ParsedArguments) throws {
        guard p.operands.count == 1, let shell = Shell(rawValue: p.operands[0]) else {
            throw p.usage("completions needs one of bash, zsh, fish")
        }
        self.shell = shell
        common = try CommonOptions(p)
    }

    package func run(_ context: RunContext) throws -> ExitStatus {
        context.out.write(Completions.script(for: shell))
        return .ok
    }
}

/// Shells `coolcal completions` writes for.
public enum Shell: String, Equatable, Sendable, CaseIterable {
    case bash, zsh, fish
}
