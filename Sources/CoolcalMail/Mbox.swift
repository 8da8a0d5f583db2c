import Foundation

/// An mbox file (RFC 4155): messages one after another, each starting with a `From `
/// line at the start of the file or after an empty line. Split on those lines only, so
/// a `From ` inside a body (mbox writers quote it as `>From `) never cuts a message.
public enum Mbox {
    /// The byte ranges of the messages, each with its `From ` line (which the message
    /// reader skips); nil when the bytes do not start with a `From ` line.
    public static func messages(in data: Data) -> [Range<Int>]? {
        data.withUnsafeBytes { raw -> [Range<Int>]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let n = bytes.count
            guard startsFrom(bytes, at: 0) else { return nil }
            var starts = [0]
            var i = 0
            var previousBlank = false
            while i < n {
                var end = i
                while end < n && bytes[end] != 0x0A { end += 1 }
                let content = end > i && bytes[end - 1] == 0x0D ? end - 1 : end
                if i > 0 && previousBlank && startsFrom(bytes, at: i) { starts.append(i) }
                previousBlank = content == i
                i = end + 1
            }
            return starts.indices.map { k in starts[k]..<(k + 1 < starts.count ? starts[k + 1] : n) }
        }
    }

    private static func startsFrom(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        i + 5 <= bytes.count && bytes[i] == 0x46 && bytes[i + 1] == 0x72 && bytes[i + 2] == 0x6F && bytes[i + 3] == 0x6D
            && bytes[i + 4] == 0x20
    }
}
