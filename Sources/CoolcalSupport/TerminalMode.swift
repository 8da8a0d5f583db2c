import Foundation

/// The terminal in raw mode for an interactive screen (`review`): keys arrive one by
/// one, unechoed, `C-c` as a byte; the alternate screen is used. `restore()` puts back
/// the settings found (`tcgetattr`) and the screen — also when a signal (SIGINT,
/// SIGTERM, SIGHUP) ends the process, from the handler. A SIGWINCH interrupts the
/// key read so the screen can be drawn again.
public final class TerminalMode {
    /// A key read, or why there is none.
    public enum Key: Equatable {
        case byte(UInt8)
        /// The window changed size (SIGWINCH): draw again.
        case resized
        /// End of input, or the terminal went away.
        case end
    }

    private let fd: Int32
    private var restored = false

    /// Raw mode on `fd` (standard input); nil when it is not a terminal.
    public init?(fd: Int32, output: Int32) {
        var settings = termios()
        guard isatty(fd) == 1, tcgetattr(fd, &settings) == 0 else { return nil }
        self.fd = fd
        TerminalSignals.arm(fd: fd, output: output, saved: settings)
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(fd, TCSAFLUSH, &raw)
        TerminalSignals.write(TerminalSignals.enter)
    }

    deinit { restore() }

    /// The rows and columns of the terminal on `fd` (`TIOCGWINSZ`), nil when unknown.
    public static func size(fd: Int32) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Settings and screen as they were; once.
    public func restore() {
        guard !restored else { return }
        restored = true
        TerminalSignals.restore()
        TerminalSignals.disarm()
    }

    /// Waits for one byte; `.resized` when a SIGWINCH came first (or meanwhile).
    public func key() -> Key {
        if TerminalSignals.takeResize() { return .resized }
        var byte: UInt8 = 0
        while true {
            do throws(SystemCallError) {
                let n = try withUnsafeMutableBytes(of: &byte) { buffer throws(SystemCallError) in
                    try SystemCalls.read(fd, into: buffer, retryingInterrupts: false)
                }
                if n == 1 { return .byte(byte) }
            } catch where error.errno == .interrupted {
                if TerminalSignals.takeResize() { return .resized }
                continue
            } catch {}
            return .end
        }
    }
}

/// What the signal handlers need, set before they are installed (nothing in a
/// handler allocates or takes a lock: `tcsetattr`, `write` and `_exit` only).
package enum TerminalSignals {
    /// Alternate screen on, cursor home; and back.
    package static let enter: [UInt8] = Array("\u{1B}[?1049h\u{1B}[H".utf8)
    package static let leave: [UInt8] = Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
    nonisolated(unsafe) private static let saved = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) private static let leaveBytes: UnsafeMutableBufferPointer<UInt8> = {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leave.count)
        _ = buffer.initialize(from: leave)
        return buffer
    }()
    nonisolated(unsafe) private static var input: Int32 = -1
    nonisolated(unsafe) private static var output: Int32 = -1
    nonisolated(unsafe) private static var resized: Int32 = 0
    private static let ending = [SIGINT, SIGTERM, SIGHUP]

    package static func arm(fd: Int32, output out: Int32, saved settings: termios) {
        saved.pointee = settings
        _ = leaveBytes
        input = fd
        output = out
        resized = 0
        for signal in ending {
            install(signal) { number in
                TerminalSignals.restore()
                _exit(128 + number)
            }
        }
        install(SIGWINCH) { _ in TerminalSignals.resized = 1 }
    }

    package static func disarm() {
        for signal in ending + [SIGWINCH] { Glibc.signal(signal, SIG_DFL) }
        input = -1
    }

    /// From a handler too: the saved settings, the normal screen. Its `write` is the
    /// one not made through `SystemCalls`: a handler must not take the trace's lock.
    package static func restore() {
        guard input >= 0 else { return }
        tcsetattr(input, TCSAFLUSH, saved)
        _ = Glibc.write(output, leaveBytes.baseAddress, leaveBytes.count)
    }

    package static func takeResize() -> Bool {
        guard resized != 0 else { return false }
        resized = 0
        return true
    }

    package static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = try? SystemCalls.write(output, $0) }
    }

    /// Without SA_RESTART: a blocked `read` returns EINTR, so a resize is seen at once.
    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }
}
