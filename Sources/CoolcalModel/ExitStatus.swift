/// sysexits-style statuses (DESIGN.md): what a run of coolcal exits with. The CLI
/// turns errors into them (`ExitStatus.of`).
public enum ExitStatus: Int32 {
    case ok = 0
    case busy = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case cantCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
    case config = 78
    /// `review` left with C-c (128 + SIGINT, as a shell reports it).
    case interrupted = 130
}
