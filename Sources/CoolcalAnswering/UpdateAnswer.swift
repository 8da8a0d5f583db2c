import CoolcalState
import CoolcalWriting

/// How `merge` and `process` answer an organizer's update of an event the calendar holds
/// (it passed the trust rules: its write is not held). The update is always written —
/// the organizer's word is the calendar's truth; only my PARTSTAT in it is the policy's
/// (issue 46, item 1), by the one rule of `SignificantChange`:
/// - the update moves no time and I had answered: my PARTSTAT is kept (an acceptance is
///   said as one, as before);
/// - it moves a time (or I never answered): the policy answers — yes (`accept-all`, or
///   the new time is free) writes ACCEPTED; busy under `accept-if-free` writes
///   NEEDS-ACTION and the inbox entry waits for my answer again; under `decline-busy`
///   DECLINED, recorded and replied as a decline is.
enum UpdateAnswer: Equatable {
    /// Written as an acceptance (ACCEPTED), said and recorded as one.
    case accept
    /// Written with this PARTSTAT, outcome `updated` with `said`; `answer`: recorded (and
    /// replied) as this answer; `reopens`: the inbox entry is unanswered again.
    case write(partstat: String, said: String, answer: Answer?, reopens: Bool)

    /// The answer to an update that `assessment` describes; `free`: the policy said yes.
    static func decide(_ assessment: UpdateAssessment, policy: MergePolicy, free: Bool, conflicts: Int) -> UpdateAnswer {
        let n = "\(conflicts) conflict\(conflicts == 1 ? "" : "s")"
        if !assessment.significant, assessment.answered, let mine = assessment.mine {
            if mine == "ACCEPTED" { return .accept }
            return .write(partstat: mine, said: "your answer kept: \(mine.lowercased())", answer: nil, reopens: false)
        }
        if free { return .accept }
        if policy == .declineBusy { return .write(partstat: "DECLINED", said: "declined: \(n)", answer: .declined, reopens: false) }
        return .write(partstat: "NEEDS-ACTION", said: (assessment.significant ? "moved; " : "") + "needs your answer: \(n)",
                      answer: nil, reopens: true)
    }
}
