import Foundation
import CoolcalCheck
import CoolcalModel
import CoolcalSchedule
import CoolcalSupport
import CoolcalWriting

/// What the answering workflows read of a run: the values the command line resolved
/// (flag > environment > config > default) and the reader, writer and diagnostics of
/// the run. The workflows never look at flags or the config file themselves.
package struct AnswerSettings {
    /// `--me`: the owner's addresses, first the one answers are mailed from.
    package var me: [String]
    /// The domain for UIDs and Message-IDs (config `domain`, else the host's name).
    package var domain: String { made.domain.value }
    /// Config `name`: the user's display name in the mails coolcal sends for them.
    package var name: String? = nil
    package var now: Date
    package var zone: TimeZone { made.zone.value }
    /// The config's `buffer`; a command's `--buffer` wins over it (`buffer(_:)`).
    package var configBuffer: Buffer?
    /// Seconds per request to the inviting server (`COOLCAL_SERVER_TIMEOUT`).
    package var serverTimeout: TimeInterval
    package var environment: [String: String]
    package var diagnostics: Diagnostics
    package var reader: CalendarReader { made.reader.value }
    /// The domain, the zone and the reader, each made when first used (the host's name,
    /// the zone's data): a `merge` that finds nothing new needs none of them.
    private let made: (domain: Lazy<String>, zone: Lazy<TimeZone>, reader: Lazy<CalendarReader>)
    package var writer: CalendarWriter
    /// The command that runs, for the usage line of a usage error.
    package var command: String?
    /// Config `allow-publish = yes`: `merge` adds published events (RFC 9671's
    /// `:allowpublic`); by default they are held for the person.
    package var allowPublish: Bool
    /// Config `max-duration`, in seconds: `merge` holds an invitation with an instance
    /// longer, or busy longer in some 30 days (a year-long "blocker", or a 13-day event
    /// repeating daily, would make every real invitation busy: `MergePass.outsized`).
    package var maxDuration: Int
    package static let defaultMaxDuration = 14 * 86_400
    /// Config `accept-from` (or `merge --accept-from`): whose new invitations `merge`
    /// answers; anyone else's are held (`unknown sender`).
    package var acceptFrom: [AcceptFrom] = [.known]
    /// Config `trusted-authserv`: the authserv-ids of the user's own mail server, whose
    /// topmost `Authentication-Results` `dmarc=fail` holds a message.
    package var trustedAuthserv: [String] = []
    /// A moment as warnings show it to a person: the command line's local form (the
    /// formatter `conflicts` uses, `Mar 2, 2026, 1:00 AM`); UTC until it is set.
    package var showTime: (Int64) -> String = { OccurrenceTime.instant($0).jsonString }
    /// More instances than this in one day is a rule no person meant (or a flood).
    package static let maxInstancesADay = 24

    package init(me: [String], domain: Lazy<String>, now: Date, zone: Lazy<TimeZone>, configBuffer: Buffer?, serverTimeout: TimeInterval,
                 environment: [String: String], diagnostics: Diagnostics, reader: Lazy<CalendarReader>, writer: CalendarWriter,
                 command: String?, allowPublish: Bool = false, maxDuration: Int = AnswerSettings.defaultMaxDuration) {
        self.me = me
        made = (domain, zone, reader)
        self.now = now
        self.configBuffer = configBuffer
        self.serverTimeout = serverTimeout
        self.environment = environment
        self.diagnostics = diagnostics
        self.writer = writer
        self.command = command
        self.allowPublish = allowPublish
        self.maxDuration = maxDuration
    }

    /// The buffer around an invitation: the command's, else the config's, else 2 h.
    package func buffer(_ flag: Buffer?) -> Buffer { flag ?? configBuffer ?? .standard }

    /// The calendar `accept` and `merge` write into (the first CAL): a file, one vdir or
    /// a CalDAV collection. A directory whose calendars are its subfolders (a vdirsyncer
    /// tree) is a usage error naming them (which one is meant cannot be guessed); one
    /// that has entries but no calendars is 66, as when it is read.
    package func writeTarget(_ operand: String, command: String) throws -> CalendarLocation {
        let target = CalendarLocation(operand)
        guard case .vdir(let path) = target, let kind = CalendarDirectory.probe(path) else { return target }
        switch kind {
        case .tree(let subfolders):
            let names = subfolders.map { URL(fileURLWithPath: $0).lastPathComponent }
            throw UsageError("\(path) holds \(subfolders.count) calendar\(subfolders.count == 1 ? "" : "s") in subfolders "
                             + "(\(names.joined(separator: ", "))); name the one to write to, such as \(subfolders[0])",
                             command: command)
        case .noCalendars:
            throw CalendarReader.noCalendars(path)
        case .vdir, .empty:
            return target
        }
    }

    /// A calendar file that does not exist (not even as a dangling link, which is written
    /// at its target) is 66, naming it: only `accept --create` starts a new calendar.
    /// `command`: who asks (`merge` and `process` never create the calendar they write).
    package static func requireExisting(_ target: CalendarLocation, command: String = "accept") throws {
        guard case .file(let path) = target, (try? FileManager.default.attributesOfItem(atPath: path)) == nil else { return }
        let reason = command == "accept" ? "no such file (coolcal accept --create … creates it)"
            : "no such file (\(command) never creates the calendar it writes; coolcal accept --create … creates it)"
        throw InputFileError(kind: .missing, path: path, reason: reason)
    }

    /// The calendar as the state keeps it, so that `decline` can open it again: an
    /// absolute path (symlinks resolved) or the URL.
    package static func stateKey(_ target: CalendarLocation) -> String {
        switch target {
        case .remote(let url): return url
        case .file(let path), .vdir(let path):
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            return (try? AtomicFile.resolve(absolute)) ?? absolute
        }
    }
}
