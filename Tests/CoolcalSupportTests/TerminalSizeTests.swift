import Foundation
import Testing
@testable import CoolcalSupport

/// The day view's width: the terminal's (TIOCGWINSZ, tested on a real pty in
/// DayViewEndToEndTests), then COLUMNS, else 80, within 20...1000.
@Suite struct TerminalSizeTests {
    @Test func aPipeIsNoTerminal() throws {
        let pipe = Pipe()
        #expect(TerminalSize.columns(fd: pipe.fileHandleForWriting.fileDescriptor) == nil)
        #expect(TerminalSize.width(fd: pipe.fileHandleForWriting.fileDescriptor, environment: ["COLUMNS": "57"]) == 57)
    }

    @Test func columnsThenEighty() {
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": "132"]) == 132)
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": " 40 "]) == 40)
        #expect(TerminalSize.width(fd: nil, environment: [:]) == 80)
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": "wide"]) == 80)
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": "0"]) == 80)
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": "-3"]) == 80)
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": "5"]) == 20)
        #expect(TerminalSize.width(fd: nil, environment: ["COLUMNS": "99999"]) == 1000)
    }
}
