import Foundation

/// An input that cannot be opened at all (EX_NOINPUT).
public struct InputFileError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable { case missing, unreadable }
    public var kind: Kind
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

/// Reads whole input files (or standard input for `-`).
public enum InputFile {
    /// The name messages use for a path: `<stdin>` for `-`.
    public static func displayName(_ path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    public static func read(_ path: String) throws -> Data {
        if path == "-" {
            return (try? FileHandle.standardInput.readToEnd()) ?? Data()
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputFileError(kind: .missing, path: path, reason: "no such file or directory")
        }
        if isDirectory.boolValue {
            throw InputFileError(kind: .unreadable, path: path, reason: "is a directory, not a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputFileError(kind: .unreadable, path: path, reason: "cannot open for reading (permission denied?)")
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw InputFileError(kind: .unreadable, path: path, reason: "read error: \(error.localizedDescription)")
        }
    }
}
