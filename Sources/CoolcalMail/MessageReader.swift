internal import CGMime
import Foundation
import CoolcalModel

/// The invitation found in an e-mail: its calendar part, decoded to UTF-8, and the
/// message's headers.
public struct MailInvitation: Equatable, Sendable {
    /// The calendar text (UTF-8), at most `MessageReader.maxCalendarBytes`.
    public var calendar: Data
    public var headers: MailHeaders
    /// The MIME type of the part it came from (`text/calendar`, `application/ics`…).
    public var partType: String

    /// The memberwise initializer, for the targets above.
    package init(calendar: Data, headers: MailHeaders, partType: String) {
        self.calendar = calendar
        self.headers = headers
        self.partType = partType
    }
}

/// An e-mail that holds no usable invitation, or could not be read as one.
public struct MessageError: StatusError, Equatable, CustomStringConvertible {
    public var message: String
    /// The message's headers when it could be parsed (to remember it by its Message-ID).
    public var headers: MailHeaders? = nil
    public var description: String { message }
    /// 74; `InviteLoader` says it as an `InviteError` (65), a Maildir merge skips or
    /// records the message.
    public var exitStatus: ExitStatus { .ioError }
}

/// Reads RFC 5322 messages with GMime and finds the invitation in them: a `text/calendar`
/// part first (with a `method` parameter or `METHOD:` inside), then `.ics` attachments,
/// descending into `multipart/*` and `message/rfc822`, transfer encoding and charset decoded.
public enum MessageReader {
    /// A message larger than this is refused before parsing.
    public static let maxBytes = 32 << 20
    /// The calendar part found keeps the bound of an invitation file.
    public static let maxCalendarBytes = 1 << 20
    /// `multipart/*` and `message/rfc822` nesting followed at most this deep.
    package static let maxDepth = 32
    /// Parts looked at at most (the rest of a message with more is not searched).
    package static let maxParts = 1000

    /// What to do about a message over `maxBytes`: `too large: 52 MB, at most 32 MiB; …`.
    public static func tooLarge(_ bytes: Int) -> String {
        "too large: \((bytes + 500_000) / 1_000_000) MB, at most \(maxBytes >> 20) MiB; " + saveTheICS
    }

    /// What a person can do with an invitation coolcal does not read past a bound.
    public static let saveTheICS = "save the .ics and run coolcal accept FILE"

    /// The start of the reason for a calendar part deeper than `maxDepth`.
    public static let nestedTooDeep = "calendar part nested deeper than \(maxDepth) levels"

    /// Whether these bytes start like an e-mail message (a cheap look at the header
    /// block, also after an mbox `From ` line); only then is `read` worth calling.
    public static func isMessage(_ data: Data) -> Bool {
        MessageSniff.messageStart(data) != nil
    }

    /// The invitation in a message. - Throws: `MessageError` naming what was found instead.
    public static func read(_ data: Data) throws -> MailInvitation {
        guard data.count <= maxBytes else {
            throw MessageError(message: tooLarge(data.count))
        }
        guard let start = MessageSniff.messageStart(data) else {
            throw MessageError(message: "not an e-mail message")
        }
        GMimeLibrary.ensureInitialised()
        let stream: UnsafeMutablePointer<GMimeStream>? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, start < raw.count else { return g_mime_stream_mem_new() }
            // Copied into the stream's own buffer.
            return g_mime_stream_mem_new_with_buffer(base.assumingMemoryBound(to: CChar.self) + start, raw.count - start)
        }
        guard let stream else { throw MessageError(message: "cannot read the message (out of memory)") }
        defer { g_object_unref(stream) }
        guard let parser = g_mime_parser_new_with_stream(stream) else {
            throw MessageError(message: "cannot read the message (out of memory)")
        }
        defer { g_object_unref(parser) }
        guard let message = g_mime_parser_construct_message(parser, nil) else {
            throw MessageError(message: "not a readable e-mail message")
        }
        defer { g_object_unref(message) }
        let headers = Self.headers(message)
        var walker = PartWalker()
        walker.walk(g_mime_message_get_mime_part(message), depth: 0)
        do {
            return try walker.invitation(headers: headers)
        } catch var error as MessageError {
            error.headers = headers
            throw error
        }
    }

    private static func headers(_ message: UnsafeMutablePointer<GMimeMessage>) -> MailHeaders {
        var headers = MailHeaders()
        if let list = g_mime_message_get_from(message), internet_address_list_length(list) > 0,
           let text = internet_address_list_to_string(list, nil, 0) {
            headers.from = nonEmpty(String(cString: text))
            g_free(text)
        }
        headers.subject = g_mime_message_get_subject(message).flatMap { nonEmpty(String(cString: $0)) }
        headers.messageID = g_mime_message_get_message_id(message).flatMap { nonEmpty(String(cString: $0)) }
        let object = UnsafeMutablePointer<GMimeObject>(OpaquePointer(message))
        headers.date = g_mime_object_get_header(object, "Date").flatMap {
            nonEmpty(String(cString: $0).trimmingCharacters(in: .whitespaces))
        }
        headers.sender = g_mime_object_get_header(object, "Sender").flatMap {
            nonEmpty(String(cString: $0).trimmingCharacters(in: .whitespaces))
        }
        if let list = g_mime_object_get_header_list(object) {
            for i in 0..<g_mime_header_list_get_count(list) {
                guard let header = g_mime_header_list_get_header_at(list, i),
                      let name = g_mime_header_get_name(header),
                      String(cString: name).lowercased() == "authentication-results",
                      let value = g_mime_header_get_value(header) else { continue }
                headers.authenticationResults.append(String(cString: value))
            }
        }
        return headers
    }

    private static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    /// The SHA-256 of `data` as 64 lowercase hex digits (GLib's checksum), for telling
    /// messages without a `Message-ID` apart.
    public static func sha256(_ data: Data) -> String {
        data.withUnsafeBytes { raw -> String in
            let empty: [UInt8] = [0]
            let text: UnsafeMutablePointer<gchar>? = raw.baseAddress.map {
                g_compute_checksum_for_data(G_CHECKSUM_SHA256, $0.assumingMemoryBound(to: guchar.self), gsize(raw.count))
            } ?? empty.withUnsafeBufferPointer { g_compute_checksum_for_data(G_CHECKSUM_SHA256, $0.baseAddress, 0) }
            guard let text else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
    }
}

/// Walks a message's MIME tree (the message stays alive meanwhile) and ranks the leaves.
private struct PartWalker {
    struct Leaf {
        let type: String
        let part: UnsafeMutablePointer<GMimePart>
        let method: String?
        let charset: String?
        let filename: String?
        let attachment: Bool
    }

    var leaves: [Leaf] = []
    /// Every part's type in order, for the error when none is an invitation.
    var found: [String] = []
    var truncated = false
    /// Parts beyond `maxDepth`, looked into only to say a calendar part is there.
    var tooDeep: [UnsafeMutablePointer<GMimeObject>] = []

    mutating func walk(_ object: UnsafeMutablePointer<GMimeObject>?, depth: Int) {
        guard let object else { return }
        guard depth <= MessageReader.maxDepth, found.count < MessageReader.maxParts else {
            truncated = true
            if depth > MessageReader.maxDepth { tooDeep.append(object) }
            return
        }
        if Self.isA(object, g_mime_multipart_get_type()) {
            let multipart = UnsafeMutablePointer<GMimeMultipart>(OpaquePointer(object))
            let count = g_mime_multipart_get_count(multipart)
            guard count > 0 else { return }
            for i in 0..<count { walk(g_mime_multipart_get_part(multipart, i), depth: depth + 1) }
        } else if Self.isA(object, g_mime_message_part_get_type()) {
            let part = UnsafeMutablePointer<GMimeMessagePart>(OpaquePointer(object))
            guard let inner = g_mime_message_part_get_message(part) else {
                found.append(Self.mimeType(object))
                return
            }
            walk(g_mime_message_get_mime_part(inner), depth: depth + 1)
        } else if Self.isA(object, g_mime_part_get_type()) {
            let part = UnsafeMutablePointer<GMimePart>(OpaquePointer(object))
            let type = Self.mimeType(object)
            let contentType = g_mime_object_get_content_type(object)
            let parameter = { (name: String) -> String? in
                contentType.flatMap { g_mime_content_type_get_parameter($0, name) }.map { String(cString: $0) }
            }
            found.append(type)
            leaves.append(Leaf(type: type, part: part, method: parameter("method"), charset: parameter("charset"),
                               filename: g_mime_part_get_filename(part).map { String(cString: $0) },
                               attachment: g_mime_part_is_attachment(part) != 0))
        } else {
            found.append(Self.mimeType(object))
        }
    }

    /// The first invitation: an inline `text/calendar` that says its method, else any
    /// calendar part or `.ics` attachment.
    func invitation(headers: MailHeaders) throws -> MailInvitation {
        try refuseDifferingInlineParts()
        var fallback: (Leaf, Data)? = nil
        for leaf in leaves {
            let isCalendarType = leaf.type == "text/calendar"
            let icsName = leaf.filename.map { $0.lowercased().hasSuffix(".ics") || $0.lowercased().hasSuffix(".ical") } ?? false
            let isICS = leaf.type == "application/ics" || leaf.type == "application/x-ics" || icsName
            guard isCalendarType || isICS else { continue }
            let preferred = isCalendarType && !leaf.attachment
            if !preferred && fallback != nil { continue }
            guard let data = content(leaf) else { continue }
            if preferred && (leaf.method != nil || Self.saysMethod(data)) {
                return try result(leaf, data, headers)
            }
            if fallback == nil { fallback = (leaf, data) }
        }
        if let (leaf, data) = fallback { return try result(leaf, data, headers) }
        if holdsCalendarTooDeep() {
            throw MessageError(message: MessageReader.nestedTooDeep + "; " + MessageReader.saveTheICS)
        }
        let count = found.count
        let listed = found.prefix(10).joined(separator: ", ") + (count > 10 || truncated ? ", …" : "")
        let what = count == 0 ? (truncated ? "parts nested more than \(MessageReader.maxDepth) deep" : "no parts") : "\(count)\(truncated ? "+" : "") part\(count == 1 ? "" : "s"): \(listed)"
        throw MessageError(message: "no calendar invitation in this message (\(what))")
    }

    /// Whether a calendar part (`text/calendar`, `application/ics`, a `.ics` file) is
    /// among the parts beyond `maxDepth`: looked for without recursion, at most
    /// `maxParts` parts (a MIME bomb's 40,000 levels cost no stack).
    private func holdsCalendarTooDeep() -> Bool {
        var stack = tooDeep
        var looked = 0
        while let object = stack.popLast(), looked < MessageReader.maxParts {
            looked += 1
            if Self.isA(object, g_mime_multipart_get_type()) {
                let multipart = UnsafeMutablePointer<GMimeMultipart>(OpaquePointer(object))
                for i in 0..<g_mime_multipart_get_count(multipart) {
                    if let part = g_mime_multipart_get_part(multipart, i) { stack.append(part) }
                }
            } else if Self.isA(object, g_mime_message_part_get_type()) {
                let part = UnsafeMutablePointer<GMimeMessagePart>(OpaquePointer(object))
                if let inner = g_mime_message_part_get_message(part), let body = g_mime_message_get_mime_part(inner) {
                    stack.append(body)
                }
            } else if Self.isA(object, g_mime_part_get_type()) {
                let type = Self.mimeType(object)
                let name = g_mime_part_get_filename(UnsafeMutablePointer<GMimePart>(OpaquePointer(object)))
                    .map { String(cString: $0).lowercased() } ?? ""
                if type == "text/calendar" || type == "application/ics" || name.hasSuffix(".ics") { return true }
            }
        }
        return false
    }

    private func result(_ leaf: Leaf, _ data: Data, _ headers: MailHeaders) throws -> MailInvitation {
        guard data.count <= MessageReader.maxCalendarBytes else {
            throw MessageError(message: "the calendar part (\(leaf.type)) is too large (\(data.count) bytes; at most \(MessageReader.maxCalendarBytes))")
        }
        var headers = headers
        headers.contentMethod = leaf.method
        return MailInvitation(calendar: data, headers: headers, partType: leaf.type)
    }

    /// Two inline `text/calendar` parts that say different things: a mail client shows
    /// one, coolcal would act on another (an `.ics` attachment beside an inline part is
    /// not looked at: 32 real messages carry both, and 4 of those differ).
    private func refuseDifferingInlineParts() throws {
        var first: [UInt8]? = nil
        for leaf in leaves where leaf.type == "text/calendar" && !leaf.attachment {
            guard let data = content(leaf) else { continue }
            let text = Self.unfolded(data)
            guard let seen = first else {
                first = text
                continue
            }
            if seen != text {
                throw MessageError(message: "two different calendar parts in one message (a mail client shows one, coolcal would answer another); nothing done")
            }
        }
    }

    /// A calendar text compared as content: CRLF and bare LF alike, folds undone.
    static func unfolded(_ data: Data) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var lines: [UInt8] = []
        for b in data where b != 0x0D { lines.append(b) }
        var i = 0
        while i < lines.count {
            if lines[i] == 0x0A, i + 1 < lines.count, lines[i + 1] == 0x20 || lines[i + 1] == 0x09 {
                i += 2
                continue
            }
            out.append(lines[i])
            i += 1
        }
        while out.last == 0x0A { out.removeLast() }
        return out
    }

    /// `METHOD:` at the start of a line, in any case.
    private static func saysMethod(_ data: Data) -> Bool {
        let pattern = Array("METHOD:".utf8)
        var atLineStart = true
        var i = data.startIndex
        while i < data.endIndex {
            let b = data[i]
            if atLineStart && (b | 0x20) == 0x6D, data.endIndex - i >= pattern.count,
               zip(data[i..<(i + pattern.count)], pattern).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) }) {
                return true
            }
            atLineStart = b == 0x0A
            i += 1
        }
        return false
    }

    /// A part's content with its transfer encoding undone, converted from its charset to
    /// UTF-8 (a text without a charset that is not UTF-8 is read as windows-1252).
    func content(_ leaf: Leaf) -> Data? {
        let charset = leaf.charset?.lowercased()
        let plain: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii"]
        guard let charset, !plain.contains(charset) else {
            guard let data = Self.decoded(leaf.part, from: nil) else { return nil }
            if String(data: data, encoding: .utf8) != nil || charset != nil { return data }
            return Self.decoded(leaf.part, from: "windows-1252") ?? data
        }
        return Self.decoded(leaf.part, from: charset) ?? Self.decoded(leaf.part, from: nil)
    }

    /// Writes the part's decoded content through a charset filter into memory.
    private static func decoded(_ part: UnsafeMutablePointer<GMimePart>, from charset: String?) -> Data? {
        guard let wrapper = g_mime_part_get_content(part) else { return Data() }
        guard let memory = g_mime_stream_mem_new() else { return nil }
        defer { g_object_unref(memory) }
        var target = memory
        var filtered: UnsafeMutablePointer<GMimeStream>? = nil
        if let charset {
            // nil when iconv has no such conversion: then the caller takes the bytes as they are.
            guard let filter = g_mime_filter_charset_new(charset, "UTF-8") else { return nil }
            defer { g_object_unref(filter) }
            guard let stream = g_mime_stream_filter_new(memory) else { return nil }
            _ = g_mime_stream_filter_add(UnsafeMutablePointer<GMimeStreamFilter>(OpaquePointer(stream)), filter)
            filtered = stream
            target = stream
        }
        defer { if let filtered { g_object_unref(filtered) } }
        guard g_mime_data_wrapper_write_to_stream(wrapper, target) >= 0 else { return nil }
        if filtered != nil { _ = g_mime_stream_flush(target) }
        guard let array = g_mime_stream_mem_get_byte_array(UnsafeMutablePointer<GMimeStreamMem>(OpaquePointer(memory))),
              let bytes = array.pointee.data else { return Data() }
        return Data(bytes: bytes, count: Int(array.pointee.len))
    }

    private static func isA(_ object: UnsafeMutablePointer<GMimeObject>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(object)), type) != 0
    }

    /// `type/subtype` in lowercase, `application/octet-stream` when the part has none.
    private static func mimeType(_ object: UnsafeMutablePointer<GMimeObject>) -> String {
        guard let contentType = g_mime_object_get_content_type(object),
              let text = g_mime_content_type_get_mime_type(contentType) else { return "application/octet-stream" }
        defer { g_free(text) }
        return String(cString: text).lowercased()
    }
}
