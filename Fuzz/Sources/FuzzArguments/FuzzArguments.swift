import CoolcalCLI
import Foundation

/// Argument parsing: the input split on NUL bytes is argv after the program name;
/// `CommandParser.commandName` must name a command or throw a usage error, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Like a real argv: no NULs inside an argument, any other bytes (decoded with
    // replacement, as CommandLine.arguments does).
    let args = bytes.split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    _ = try? CommandParser.commandName(size == 0 ? [] : args)
    return 0
}
