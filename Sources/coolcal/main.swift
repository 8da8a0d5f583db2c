import CoolcalCLI
import Foundation

// A file-size limit (ulimit -f) or a full pipe must be an error coolcal reports
// (EFBIG → exit 74, EPIPE), not a signal that kills it halfway.
signal(SIGXFSZ, SIG_IGN)
signal(SIGPIPE, SIG_IGN)

let status = CLI.run(
    Array(CommandLine.arguments.dropFirst()),
    environment: RunEnvironment(
        variables: ProcessInfo.processInfo.environment,
        stdoutIsTerminal: isatty(STDOUT_FILENO) == 1),
    stdout: FileDescriptorSink(FileHandle.standardOutput),
    stderr: FileDescriptorSink(FileHandle.standardError))
exit(status)
