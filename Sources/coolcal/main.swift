import CoolcalKit
import Foundation

let status = CLI.run(
    Array(CommandLine.arguments.dropFirst()),
    environment: RunEnvironment(
        variables: ProcessInfo.processInfo.environment,
        stdoutIsTerminal: isatty(STDOUT_FILENO) == 1),
    stdout: FileDescriptorSink(FileHandle.standardOutput),
    stderr: FileDescriptorSink(FileHandle.standardError))
exit(status)
