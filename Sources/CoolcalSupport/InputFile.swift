import Foundation
import CoolcalModel

/// An input that cannot be opened at all (EX_NOINPUT).
public struct InputFileError: StatusError, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable { case missing, unreadable }
    public var kind: Kind
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }

    /// 66 (EX_NOINPUT), whether missing or unreadable.
    public var exitStatus: ExitStatus {
        switch kind {
        case .missing: return .noInput
        case .unreadable: return .noInput
        }
    }

    /// The memberwise initializer, for the targets above.
    package init(kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }
}

/// An input larger than the bound its reader gave; the reader turns it into its own
/// error (an invitation's or a calendar's "too large", 65).
public struct InputTooLarge: StatusError, Equatable {
    /// 74; the readers of invitations, calendars and the config say it as their own
    /// error (65, 78).
    public var exitStatus: ExitStatus { .ioError }

    /// What messages call the input (`<stdin>` for `-`).
    public var path: String
    /// A regular file's size; nil for a stream (it only said: more than `limit`).
    public var size: Int64?
    public var limit: Int
}

/// The one opener of inputs (invitations, calendars, vdir and spool entries, standard
/// input): `open` with `O_NONBLOCK` (a FIFO without a writer cannot block it), `fstat`,
/// accept only the kinds the reader allows, clear `O_NONBLOCK`; reads are bounded, and
/// a stream (pipe, FIFO, socket, terminal) is polled against a deadline.
public enum InputFile {
    /// The kinds of file a reader takes.
    public enum Accepting: Equatable, Sendable {
        /// Calendars: regular files (or links to them) only.
        case regularFiles
        /// Invitations: also pipes, FIFOs, sockets and terminals (`conflicts <(receiver) cal.ics`).
        case streams
    }

    /// The name messages use for a path: `<stdin>` for `-`.
    public static func displayName(_ path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    /// Seconds a pipe, FIFO or terminal has to deliver all of its input:
    /// `COOLCAL_INPUT_TIMEOUT`, default 30.
    public static var streamTimeout: TimeInterval {
        guard let raw = getenv("COOLCAL_INPUT_TIMEOUT"), let value = TimeInterval(String(cString: raw)),
              value.isFinite, value >= 0 else { return 30 }
        return value
    }

    /// Opens `path` (`-`: standard input) if it is a kind `accepting` allows; 66 otherwise.
    public static func open(_ path: String, accepting: Accepting) throws -> OpenInput {
        let name = displayName(path)
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            do throws(SystemCallError) {
                fd = try SystemCalls.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            } catch {
                let missing = error.errno == .noSuchFileOrDirectory
                throw InputFileError(kind: missing ? .missing : .unreadable, path: name,
                                     reason: missing ? "no such file or directory" : "cannot open for reading: \(error)")
            }
        }
        let status: FileStatus
        do {
            status = try FileStatus(descriptor: fd, path: name)
        } catch {
            if path != "-" { try? SystemCalls.close(fd, path: name) }
            throw InputFileError(kind: .unreadable, path: name, reason: "cannot examine: \(error)")
        }
        let input = OpenInput(name: name, descriptor: fd, owned: path != "-", status: status)
        let stream: Bool
        switch status.kind {
        case .regular: stream = false
        case .fifo, .socket: stream = true
        case .characterDevice where isatty(fd) == 1: stream = true
        default:
            throw InputFileError(kind: .unreadable, path: name, reason: "not a regular file (\(status.kind.described))")
        }
        if stream && accepting == .regularFiles {
            throw InputFileError(kind: .unreadable, path: name, reason: "not a regular file (\(status.kind.described))")
        }
        // Standard input's flags are shared with the shell: only our own descriptor is changed.
        if path != "-" {
            if let flags = try? SystemCalls.fcntl(fd, F_GETFL, path: name) {
                _ = try? SystemCalls.fcntl(fd, F_SETFL, flags & ~O_NONBLOCK, path: name)
            }
        }
        return input
    }

    /// All of `path`, at most `limit` bytes (`InputTooLarge` as soon as more arrive).
    public static func read(_ path: String, limit: Int, accepting: Accepting) throws -> Data {
        try Self.open(path, accepting: accepting).readAll(limit: limit)
    }
}

/// An input opened by `InputFile.open`; closed when released (standard input is not).
public final class OpenInput {
    /// What messages call it.
    public let name: String
    /// `fstat` at opening: what was read, for comparing with the file later.
    public let status: FileStatus
    private let descriptor: Int32
    private let owned: Bool
    private let deadline: Date

    fileprivate init(name: String, descriptor: Int32, owned: Bool, status: FileStatus) {
        self.name = name
        self.descriptor = descriptor
        self.owned = owned
        self.status = status
        deadline = Date().addingTimeInterval(InputFile.streamTimeout)
    }

    /// The open descriptor (a streamed write copies the file's unchanged ranges from it:
    /// `AtomicFile.Output.copy`); the input owns it: not to be closed by the caller.
    package var fileDescriptor: Int32 { descriptor }

    /// Set once `closeBeside` has handed the descriptor to its thread.
    private var handedOff = false

    deinit {
        if owned && !handedOff { try? SystemCalls.close(descriptor, path: name) }
    }

    /// Closes the file now, on another thread: when it was the last reference to a
    /// file that has since been replaced, that close frees the old file's pages (tens
    /// of ms for 64 MB), which the caller need not wait for. Not read again after.
    public func closeBeside() {
        guard owned && !handedOff else { return }
        handedOff = true
        let descriptor = descriptor, name = name
        _ = BackgroundTask { try? SystemCalls.close(descriptor, path: name) }
    }

    /// A pipe, FIFO, socket or terminal: read against the deadline.
    public var isStream: Bool { status.kind != .regular }

    /// Reads into `buffer`; 0 at the end. A stream that has nothing by the deadline is 66.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if isStream { try waitForData() }
            do throws(SystemCallError) {
                return try SystemCalls.read(descriptor, into: buffer, path: name)
            } catch where error.errno == .wouldBlock && isStream {
                continue
            } catch {
                throw InputFileError(kind: .unreadable, path: name, reason: "read error: \(error)")
            }
        }
    }

    /// Reads into `buffer` from `offset` of a regular file, leaving the file offset
    /// alone (`pread`: threads may read one input at once); 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        do throws(SystemCallError) {
            return try SystemCalls.pread(descriptor, into: buffer, at: offset, path: name)
        } catch {
            throw InputFileError(kind: .unreadable, path: name, reason: "read error: \(error)")
        }
    }

    /// Fills `buffer` from `offset` of a regular file, reading on after a short read:
    /// how many bytes it holds, fewer than its size only where the file ends.
    public func read(filling buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        var got = 0
        while got < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...]), at: offset + Int64(got))
            if n == 0 { break }
            got += n
        }
        return got
    }

    /// Everything up to the end, refused (`InputTooLarge`) as soon as it exceeds `limit`.
    public func readAll(limit: Int) throws -> Data {
        try readAllNotingBareCR(limit: limit).data
    }

    /// `readAll`, and whether the bytes have a CR that no LF follows (`BareCR`) when
    /// that was found out on the way (a file read in halves: each half looked at on
    /// the thread that read it); nil when it was not.
    package func readAllNotingBareCR(limit: Int) throws -> (data: Data, bareCR: Bool?) {
        if !isStream && status.size > Int64(limit) {
            throw InputTooLarge(path: name, size: status.size, limit: limit)
        }
        var data = Data()
        var bareCR: Bool?
        // Halves are read by offset from the start: only a file opened here (standard
        // input's offset is the shell's, and what is before it is not ours to read).
        var byOffset = false
        if owned && !isStream && status.size >= Int64(Self.halvesFrom), let (halves, bare) = try readHalves(count: Int(status.size)) {
            if halves.count < status.size { return (halves, nil) }
            (data, bareCR, byOffset) = (halves, bare, true)
        } else if !isStream && status.size > 0 {
            // Straight into the result (the kernel's copy only), as big as the file was.
            data = Self.prefaulted(count: Int(status.size))
            var filled = 0
            try data.withUnsafeMutableBytes { all in
                while filled < all.count {
                    let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: all[filled...]))
                    if n == 0 { break }
                    filled += n
                }
            }
            if filled < data.count {
                data.count = filled
                return (data, nil)
            }
        }
        // A stream's bytes, or what a file holds beyond its size at opening (it grew meanwhile).
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(size, limit + 1 - data.count)])
            let n = try byOffset ? read(into: piece, at: Int64(data.count)) : read(into: piece)
            if n == 0 { return (data, data.count == status.size ? bareCR : nil) }
            data.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            if data.count > limit {
                throw InputTooLarge(path: name, size: isStream ? nil : max(status.size, Int64(data.count)), limit: limit)
            }
        }
    }

    /// `count` zero bytes whose pages are in memory at once (`MAP_POPULATE`: anonymous
    /// memory, no file behind it): 64 MiB of fresh memory filled by read(2) took 70–90 ms
    /// here page fault by page fault, 40 ms this way. Small sizes: plain `Data`.
    package static func prefaulted(count: Int) -> Data {
        guard count >= 1 << 20,
              let p = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
              p != UnsafeMutableRawPointer(bitPattern: -1) else { return Data(count: count) }
        // Unmapped whole: the count may have been cut since.
        return Data(bytesNoCopy: p, count: count, deallocator: .custom { pointer, _ in munmap(pointer, count) })
    }

    /// Polls until the stream can be read (data or its end), or throws at the deadline.
    private func waitForData() throws {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw InputFileError(kind: .unreadable, path: name,
                                     reason: "\(status.kind.described) that did not end within \(String(format: "%g", InputFile.streamTimeout)) s (COOLCAL_INPUT_TIMEOUT)")
            }
            let ready: Int32
            do throws(SystemCallError) {
                ready = try SystemCalls.poll(descriptor, events: Int16(POLLIN), timeout: Int32(min(remaining * 1000, 60_000).rounded(.up)),
                                             path: name)
            } catch {
                throw InputFileError(kind: .unreadable, path: name, reason: "cannot wait for input: \(error)")
            }
            if ready > 0 { return }
        }
    }
}
