/// The headers of the e-mail an invitation arrived in, kept with the invitation so the
/// inbox can show who sent it and a mail answer can thread under it (`In-Reply-To`).
/// Values are decoded (RFC 2047) text; nil when the message had no such header.
public struct MailHeaders: Equatable, Sendable {
    public var from: String?
    public var subject: String?
    /// Without the angle brackets.
    public var messageID: String?
    /// As written in the message (RFC 5322 date-time).
    public var date: String?
    /// The `Sender` header (who sent it on the From's behalf), when there is one.
    public var sender: String? = nil
    /// Every `Authentication-Results` header (RFC 8601), topmost first, unfolded.
    public var authenticationResults: [String] = []
    /// The `method` parameter of the calendar part's `Content-Type` (RFC 6047 §2.4: it
    /// must agree with the body's METHOD), as written; nil when it has none.
    public var contentMethod: String? = nil

    public init(from: String? = nil, subject: String? = nil, messageID: String? = nil, date: String? = nil) {
        self.from = from
        self.subject = subject
        self.messageID = messageID
        self.date = date
    }
}
