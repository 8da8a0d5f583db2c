import Foundation

/// How wide the reader's terminal is: `TIOCGWINSZ` on the descriptor, then `COLUMNS`,
/// else 80 columns.
public enum TerminalSize {
    public static let fallback = 80
    /// Narrower than this is drawn at this width (a line wraps rather than a label vanish).
    public static let narrowest = 20
    /// Wider than this is drawn at this width.
    public static let widest = 1000

    /// The columns of the terminal on `fd`, or nil when it is not a terminal or says 0.
    public static func columns(fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `columns(fd:)` when `fd` is given, then a positive `COLUMNS`, else `fallback`;
    /// kept within `narrowest...widest`.
    public static func width(fd: Int32?, environment: [String: String]) -> Int {
        let measured = fd.flatMap(columns(fd:))
        let told = environment["COLUMNS"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
        return min(widest, max(narrowest, measured ?? told ?? fallback))
    }
}
