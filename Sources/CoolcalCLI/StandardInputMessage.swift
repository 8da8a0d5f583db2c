import Foundation

/// The message a mail server hands `process` on standard input, read whole up to
/// `limit` bytes. Beyond that it is not read into memory: `rest` copies what remains
/// (to the pass-through output, or nowhere), so a huge message is never lost.
struct StandardInputMessage {
    /// What was read: all of it, unless `complete` is false.
    var data = Data()
    var complete = true

    static let limit = 64 << 20

    static func read(limit: Int = limit) -> StandardInputMessage {
        var message = StandardInputMessage()
        let input = FileHandle.standardInput
        while true {
            guard let chunk = try? input.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
            message.data.append(chunk)
            if message.data.count > limit {
                message.complete = false
                break
            }
        }
        return message
    }

    /// Copies the rest of standard input to `out` (nil: reads it to the end, for nothing).
    static func rest(to out: FileHandle?) {
        let input = FileHandle.standardInput
        while let chunk = try? input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try? out?.write(contentsOf: chunk)
        }
    }
}
