import Foundation

/// One HTTP request as coolcal sends it: what `HTTPExchange` hands to its helper,
/// `coolcal-http`, the only program of coolcal's that links libcurl (as git's remote
/// helpers do: `coolcal` itself then loads 26 fewer libraries on every start).
package struct HTTPRequest: Sendable, Equatable {
    package var method: String
    /// An absolute http(s) URL, without user info (credentials go in a header).
    package var url: String
    /// Names and values, in order; neither may hold CR, LF or NUL.
    package var headers: [HTTPHeader] = []
    package var body: Data?
    /// Seconds without progress, and seconds for the whole exchange.
    package var requestTimeout: TimeInterval
    package var resourceTimeout: TimeInterval
    /// The longest body kept, and what happens past it.
    package var limit: Int
    package var overflow: HTTPExchange.Overflow

    package init(method: String, url: String, headers: [HTTPHeader] = [], body: Data? = nil, requestTimeout: TimeInterval,
                 resourceTimeout: TimeInterval, limit: Int, overflow: HTTPExchange.Overflow) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
        self.limit = limit
        self.overflow = overflow
    }
}

package struct HTTPHeader: Sendable, Equatable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The frames `coolcal` and `coolcal-http` exchange over a pipe: `COOLCAL-HTTP/1 N\n`
/// and N bytes of fields, each `NAME LENGTH\n`, LENGTH bytes and `\n`. Lengths, not
/// separators, so a body or a header is carried as it is; a frame that is not exactly
/// this is refused whole (nil), never read in part.
package enum HTTPWire {
    /// A frame's fields may not claim more than this (a body is at most 256 MiB).
    package static let maxFrame = 300 << 20
    static let magic = "COOLCAL-HTTP/1 "

    package static func encode(_ request: HTTPRequest) -> Data {
        var fields = Fields()
        fields.add("method", request.method)
        fields.add("url", request.url)
        for header in request.headers { fields.add("header", header.name + ": " + header.value) }
        fields.add("request-timeout", String(request.requestTimeout))
        fields.add("resource-timeout", String(request.resourceTimeout))
        fields.add("limit", String(request.limit))
        fields.add("overflow", request.overflow == .cancel ? "cancel" : "truncate")
        if let body = request.body { fields.add("body", body) }
        return fields.framed()
    }

    package static func encode(_ reply: HTTPExchange.Reply) -> Data {
        var fields = Fields()
        if let status = reply.status { fields.add("status", String(status)) }
        if let etag = reply.etag { fields.add("etag", etag) }
        if let location = reply.location { fields.add("location", location) }
        if let type = reply.contentType { fields.add("content-type", type) }
        if let dav = reply.dav { fields.add("dav", dav) }
        if let code = reply.errorCode { fields.add("error", String(code)) }
        if reply.challenged { fields.add("challenged", "1") }
        if reply.overflow { fields.add("overflow", "1") }
        if reply.timedOut { fields.add("timed-out", "1") }
        fields.add("body", reply.body)
        return fields.framed()
    }

    /// A request's fields (a frame's, its header line gone); nil unless every field is
    /// known, the required ones are there once, and no header can split a line.
    package static func request(_ data: Data) -> HTTPRequest? {
        guard let fields = parse(data) else { return nil }
        var method: String?, url: String?, body: Data?, headers: [HTTPHeader] = []
        var requestTimeout: TimeInterval?, resourceTimeout: TimeInterval?, limit: Int?, overflow: HTTPExchange.Overflow?
        for (name, value) in fields {
            let text = String(decoding: value, as: UTF8.self)
            switch name {
            case "method" where method == nil && isToken(text): method = text
            case "url" where url == nil && !text.isEmpty && isLine(text): url = text
            case "header":
                guard isLine(text), let colon = text.firstIndex(of: ":"), isToken(String(text[..<colon])),
                      text[colon...].hasPrefix(": ") else { return nil }
                headers.append(HTTPHeader(String(text[..<colon]), String(text[colon...].dropFirst(2))))
            case "request-timeout" where requestTimeout == nil: requestTimeout = TimeInterval(text)
            case "resource-timeout" where resourceTimeout == nil: resourceTimeout = TimeInterval(text)
            case "limit" where limit == nil: limit = Int(text)
            case "overflow" where overflow == nil:
                overflow = text == "cancel" ? .cancel : text == "truncate" ? .truncate : nil
            case "body" where body == nil: body = Data(value)
            default: return nil
            }
        }
        guard let method, let url, let requestTimeout, let resourceTimeout, let limit, let overflow,
              requestTimeout > 0, resourceTimeout > 0, limit >= 0 else { return nil }
        return HTTPRequest(method: method, url: url, headers: headers, body: body, requestTimeout: requestTimeout,
                           resourceTimeout: resourceTimeout, limit: limit, overflow: overflow)
    }

    /// A reply's fields; nil unless every field is known and there once.
    package static func reply(_ data: Data) -> HTTPExchange.Reply? {
        guard let fields = parse(data) else { return nil }
        var reply = HTTPExchange.Reply()
        var seen = Set<String>()
        for (name, value) in fields {
            guard seen.insert(name).inserted else { return nil }
            let text = String(decoding: value, as: UTF8.self)
            switch name {
            case "status": guard let status = Int(text) else { return nil }; reply.status = status
            case "etag": reply.etag = text
            case "location": reply.location = text
            case "content-type": reply.contentType = text
            case "dav": reply.dav = text
            case "error": guard let code = Int(text) else { return nil }; reply.errorCode = code
            case "challenged": reply.challenged = text == "1"
            case "overflow": reply.overflow = text == "1"
            case "timed-out": reply.timedOut = text == "1"
            case "body": reply.body = Data(value)
            default: return nil
            }
        }
        return reply
    }

    /// How many bytes of fields follow a frame's header line; nil for a line that is
    /// not one.
    package static func frameLength(_ line: Data) -> Int? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix(magic), let count = Int(text.dropFirst(magic.count)), (0...maxFrame).contains(count) else { return nil }
        return count
    }

    private static func parse(_ data: Data) -> [(String, Data)]? {
        var fields: [(String, Data)] = []
        var at = data.startIndex
        while at < data.endIndex {
            guard let newline = data[at...].firstIndex(of: 0x0A) else { return nil }
            let head = String(decoding: data[at..<newline], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
            guard head.count == 2, let length = Int(head[1]), length >= 0,
                  data.endIndex - (newline + 1) > length, data[newline + 1 + length] == 0x0A else { return nil }
            fields.append((String(head[0]), data[(newline + 1)..<(newline + 1 + length)]))
            at = newline + 2 + length
        }
        return fields
    }

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
    }

    private static func isLine(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    private struct Fields {
        var bytes = Data()
        mutating func add(_ name: String, _ value: String) { add(name, Data(value.utf8)) }
        mutating func add(_ name: String, _ value: Data) {
            bytes.append(contentsOf: "\(name) \(value.count)\n".utf8)
            bytes.append(value)
            bytes.append(0x0A)
        }
        func framed() -> Data { Data("\(HTTPWire.magic)\(bytes.count)\n".utf8) + bytes }
    }
}
