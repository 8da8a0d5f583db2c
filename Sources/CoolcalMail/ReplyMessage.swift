internal import CGMime
import Foundation

/// An iMIP answer (RFC 6047): a complete RFC 5322 message whose
/// `multipart/alternative` holds a short `text/plain` and the iTIP REPLY as
/// `text/calendar; charset=UTF-8; method=REPLY`, both UTF-8 bytes. Built and serialized by GMime:
/// headers are RFC 2047-encoded where they are not ASCII and folded where long.
public struct ReplyMessage: Equatable, Sendable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var date: Date
    /// The `Message-ID` without angle brackets (see `messageID(domain:)`).
    public var messageID: String
    /// The invitation's `Message-ID` (without brackets) for `In-Reply-To` and `References`.
    public var inReplyTo: String?
    /// The human-readable part.
    public var text: String
    /// The iCalendar object (`METHOD:REPLY` unless `method` says otherwise).
    public var calendar: String
    /// The iTIP method the calendar part is labelled with (`method=` of text/calendar).
    public var method = "REPLY"
    /// More recipients (an organizer's update goes to every attendee).
    public var alsoTo: [MailAddress] = []

    public init(from: MailAddress, to: MailAddress, subject: String, date: Date, messageID: String,
                inReplyTo: String?, text: String, calendar: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.inReplyTo = inReplyTo
        self.text = text
        self.calendar = calendar
    }

    /// A fresh `random@domain` from GMime (the domain cut to host-name characters).
    public static func messageID(domain: String) -> String {
        GMimeLibrary.ensureInitialised()
        let safe = String(domain.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-") }
            .map(Character.init))
        guard let raw = g_mime_utils_generate_message_id(safe.isEmpty ? "localhost" : safe) else {
            return UUID().uuidString.lowercased() + "@" + (safe.isEmpty ? "localhost" : safe)
        }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// A message id as it may stand inside `<…>`: nil when, cleaned, it is empty or
    /// holds brackets or spaces (an id from a received message is not trusted).
    package static func bracketable(_ id: String?) -> String? {
        guard let id else { return nil }
        var cleaned = HeaderText.clean(id)
        if cleaned.hasPrefix("<") && cleaned.hasSuffix(">") && cleaned.count >= 2 { cleaned = String(cleaned.dropFirst().dropLast()) }
        guard !cleaned.isEmpty, !cleaned.contains(where: { "<> ".contains($0) }), cleaned.utf8.count <= 900 else { return nil }
        return cleaned
    }

    /// The message as `sendmail -t` reads it: LF line ends, headers first.
    public func rendered() -> String {
        GMimeLibrary.ensureInitialised()
        guard let message = g_mime_message_new(1) else { return "" }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let object = ReplyCast.object(message)
        for (type, mailbox) in [(GMIME_ADDRESS_TYPE_FROM, from), (GMIME_ADDRESS_TYPE_TO, to)] + alsoTo.map({ (GMIME_ADDRESS_TYPE_TO, $0) }) {
            // Names are encoded as UTF-8 words (GMime would otherwise pick the smallest charset).
            guard let list = g_mime_message_get_addresses(message, type),
                  let address = internet_address_mailbox_new(mailbox.name, mailbox.address) else { continue }
            internet_address_set_charset(address, "utf-8")
            internet_address_list_add(list, address)
            g_object_unref(UnsafeMutableRawPointer(address))
        }
        g_mime_message_set_subject(message, HeaderText.clean(subject), "utf-8")
        if let when = g_date_time_new_from_unix_utc(Int(date.timeIntervalSince1970)) {
            g_mime_message_set_date(message, when)
            g_date_time_unref(when)
        }
        g_mime_message_set_message_id(message, Self.bracketable(messageID) ?? Self.messageID(domain: "localhost"))
        if let parent = Self.bracketable(inReplyTo) {
            g_mime_object_set_header(object, "In-Reply-To", "<\(parent)>", nil)
            g_mime_object_set_header(object, "References", "<\(parent)>", nil)
        }
        guard let alternative = g_mime_multipart_new_with_subtype("alternative") else { return "" }
        defer { g_object_unref(UnsafeMutableRawPointer(alternative)) }
        for (subtype, body, method) in [("plain", text, nil), ("calendar", calendar, method)] {
            guard let part = Self.textPart(subtype, body, method: method) else { return "" }
            g_mime_multipart_add(alternative, ReplyCast.object(part))
            g_object_unref(UnsafeMutableRawPointer(part))
        }
        g_mime_message_set_mime_part(message, ReplyCast.object(alternative))
        guard let raw = g_mime_object_to_string(object, nil) else { return "" }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// A text part whose content is `body`'s UTF-8 bytes (LF line ends), labelled
    /// `charset=UTF-8`: 7bit when it is ASCII with no line over 78 octets (RFC 5322
    /// §2.1.1), else quoted-printable, whose soft breaks keep every line within 76.
    ///
    /// The bytes go in as a stream, not through `g_mime_text_part_set_text`: that call
    /// picks the smallest charset the text fits and converts it, so a text whose every
    /// non-ASCII character is Latin-1 (é, ü, ß) became ISO-8859-1 bytes, which the
    /// `charset=UTF-8` set after it then mislabelled.
    private static func textPart(_ subtype: String, _ body: String, method: String?) -> UnsafeMutablePointer<GMimeTextPart>? {
        guard let part = g_mime_text_part_new_with_subtype(subtype) else { return nil }
        let lf = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let bytes = Array((lf.hasSuffix("\n") ? lf : lf + "\n").utf8)
        guard let stream = bytes.withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { g_mime_stream_mem_new_with_buffer($0.baseAddress, $0.count) }
        }) else {
            g_object_unref(UnsafeMutableRawPointer(part))
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        guard let content = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT) else {
            g_object_unref(UnsafeMutableRawPointer(part))
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(content)) }
        let mimePart = ReplyCast.part(part)
        g_mime_part_set_content(mimePart, content)
        g_mime_text_part_set_charset(part, "UTF-8")
        if let method { g_mime_object_set_content_type_parameter(ReplyCast.object(part), "method", method) }
        let plain = bytes.allSatisfy { $0 < 0x80 } && !bytes.split(separator: 0x0A).contains { $0.count > 78 }
        g_mime_part_set_content_encoding(mimePart, plain ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE)
        return part
    }
}

/// GMime's class casts (`GMIME_OBJECT()`, `GMIME_PART()`), which Swift does not import:
/// every GMime type begins with its parent, so the pointer is the same.
private enum ReplyCast {
    static func object<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GMimeObject> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GMimeObject.self)
    }

    static func part<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GMimePart> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GMimePart.self)
    }
}
