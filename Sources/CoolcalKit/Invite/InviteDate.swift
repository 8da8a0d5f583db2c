import Foundation

/// Parses the payload's `start`/`end`: ISO 8601 date-times with an offset or `Z`
/// (fractional seconds allowed), or bare dates for all-day invitations.
enum InviteDate {
    enum Failure: Error { case noOffset, unparseable }

    static func parse(_ text: String) throws -> OccurrenceTime {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let date = parseDate(s) { return .date(date) }
        for formatter in formatters {
            if let d = formatter.date(from: s), d.timeIntervalSince1970.isFinite {
                let seconds = Int64(d.timeIntervalSince1970.rounded(.down))
                let year = CivilDateTime(utcSeconds: seconds).year
                guard (1...9999).contains(year) else { throw Failure.unparseable }
                return .instant(seconds)
            }
        }
        if s.count >= 19, let _ = parseDate(String(s.prefix(10))), s.dropFirst(10).first == "T",
           !s.dropFirst(10).contains(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) {
            throw Failure.noOffset
        }
        throw Failure.unparseable
    }

    /// `YYYY-MM-DD` exactly, naming a real day.
    static func parseDate(_ s: String) -> CivilDateTime? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let date = CivilDateTime(year: y, month: m, day: d)
        return date.isValid && y >= 1 ? date : nil
    }

    nonisolated(unsafe) private static let formatters: [ISO8601DateFormatter] = {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return [plain, fractional]
    }()
}
