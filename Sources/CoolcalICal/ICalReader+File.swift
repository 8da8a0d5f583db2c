import Foundation
import CoolcalSupport

/// Calendar files read whole: regular files only (`InputFile`), at most the
/// `maxParseBytes` libical may be given; a larger one is refused as soon as that is known.
extension ICalReader {
    /// The bytes of the calendar file at `path`.
    public static func wholeFile(_ path: String) throws -> Data {
        try wholeFile(try InputFile.open(path, accepting: .regularFiles))
    }

    /// The bytes of an opened calendar file.
    public static func wholeFile(_ input: OpenInput) throws -> Data {
        do {
            return try input.readAll(limit: maxParseBytes)
        } catch let error as InputTooLarge {
            let size = error.size.map { "\($0 >> 20) MiB" } ?? "more than \(maxParseBytes >> 20) MiB"
            throw ICalError(file: input.name, message: "too large to read whole (\(size); at most \(maxParseBytes >> 20) MiB)")
        }
    }
}
