import Foundation
import CoolcalSchedule
import CoolcalState

/// What an answer to an invitation says.
package enum AnswerKind: Equatable, Sendable {
    case accept, tentative, decline
    case comment(String)

    /// As recorded in the state and sent to the server.
    package var answer: Answer {
        switch self {
        case .accept: return .accepted
        case .tentative: return .tentative
        case .decline: return .declined
        case .comment: return .comment
        }
    }

    /// The attendee's iTIP `PARTSTAT` for it; nil for a comment.
    package var partstat: String? {
        switch self {
        case .accept: return "ACCEPTED"
        case .tentative: return "TENTATIVE"
        case .decline: return "DECLINED"
        case .comment: return nil
        }
    }

    /// The `PARTSTAT` a recorded answer stands for; nil for a comment.
    package static func partstat(of answer: Answer) -> String? {
        switch answer {
        case .accepted: return "ACCEPTED"
        case .tentative: return "TENTATIVE"
        case .declined: return "DECLINED"
        case .comment: return nil
        }
    }
}

/// How an answer is given besides its kind; `review` takes the defaults.
package struct AnswerOptions: Equatable, Sendable {
    /// `accept --if-free`: every CAL must be free in the buffered window.
    package var ifFree = false
    /// `accept --dry-run`: print what would be written; write and record nothing.
    package var dryRun = false
    /// `--reply`: mail the iTIP REPLY to the organizer as well.
    package var reply = false
    /// `--buffer`: time around the invitation that `--if-free` checks.
    package var buffer: Buffer?
    /// `accept --new-organizer`: apply an update or cancellation whose ORGANIZER is not the
    /// stored event's (held as `organizer changed` otherwise).
    package var newOrganizer = false
    /// `accept --create`: a calendar file that does not exist is created; without it,
    /// accepting into a missing file is 66 (a typo would start a new calendar).
    package var create = false

    package init(ifFree: Bool = false, dryRun: Bool = false, reply: Bool = false, buffer: Buffer? = nil) {
        self.ifFree = ifFree
        self.dryRun = dryRun
        self.reply = reply
        self.buffer = buffer
    }
}
