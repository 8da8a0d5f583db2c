import Foundation

/// Where a run writes text: a file descriptor in the binary, a string in tests.
public protocol TextSink: AnyObject {
    func write(_ text: String)
    /// Bytes as they are (`process --pass-through`'s message), not necessarily UTF-8.
    func write(bytes: Data)
}

extension TextSink {
    public func write(bytes: Data) { self.write(String(decoding: bytes, as: UTF8.self)) }
}

/// Collects output in memory.
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
}

/// Writes to a file descriptor (stdout, stderr), unbuffered.
public final class FileDescriptorSink: TextSink {
    private let handle: FileHandle
    public init(_ handle: FileHandle) { self.handle = handle }
    public func write(_ text: String) {
        try? handle.write(contentsOf: Data(text.utf8))
    }
    public func write(bytes: Data) {
        try? handle.write(contentsOf: bytes)
    }
}

/// What a run may learn from outside its arguments.
public struct RunEnvironment {
    public var variables: [String: String]
    public var stdoutIsTerminal: Bool
    public var now: Date

    public init(variables: [String: String], stdoutIsTerminal: Bool, now: Date = Date()) {
        self.variables = variables
        self.stdoutIsTerminal = stdoutIsTerminal
        self.now = now
    }
}
