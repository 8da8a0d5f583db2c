/// The schema step of issue 47 ("inbox titles as data"): an inbox entry keeps what it is
/// called as a kind and fields (`InboxTitle`), no longer as English words.
///
/// Before it, `merge` stored a reply's title as `ATTENDEE VERB TITLE[ to A, B]` (VERB:
/// `accepted`, `declined`, `tentatively accepted`, `delegated`, `answered (partstat)`)
/// and a counter-proposal's as `PROPOSER proposes a new time for TITLE` (`someone` when
/// nobody was named); ATTENDEE and PROPOSER are the row's `organizer`. Such a title is
/// taken apart into the event's title and the reply's PARTSTAT. A reply's title that
/// holds ` to ` after its verb cannot be told apart (a delegation, or the event's own
/// words), nor can a title that does not start as its row says: those are kept as they
/// were, `legacy`, and shown verbatim. Every other row is an event's title.
enum TitleMigration {
    /// What a reply's verb stood for, as `MergePass` wrote it.
    private static let verbs = [("accepted", "ACCEPTED"), ("declined", "DECLINED"),
                                ("tentatively accepted", "TENTATIVE"), ("delegated", "DELEGATED")]

    /// The text after `ATTENDEE `.
    private static let rest = "substr(title, length(organizer) + 2)"

    /// A reply row whose title starts `ATTENDEE ` and is still `legacy`.
    private static let replyRow = """
        kind = 'reply' AND title_kind = 'legacy' AND length(organizer) > 0
          AND substr(title, 1, length(organizer) + 1) = organizer || ' '
        """

    private static func verb(_ words: String, _ partstat: String) -> String {
        let prefix = "'\(words) '"
        let event = "substr(\(rest), length(\(prefix)) + 1)"
        return """
            UPDATE invitations SET title_kind = 'reply', partstat = '\(partstat)', title = \(event)
            WHERE \(replyRow) AND substr(\(rest), 1, length(\(prefix))) = \(prefix) AND instr(\(event), ' to ') = 0;
            """
    }

    /// `answered (partstat) TITLE`: the partstat as written (lower case; Output lowers it again).
    private static let answered: String = {
        let close = "instr(\(rest), ') ')"
        let event = "substr(\(rest), \(close) + 2)"
        return """
            UPDATE invitations SET title_kind = 'reply', partstat = substr(\(rest), 11, \(close) - 11), title = \(event)
            WHERE \(replyRow) AND substr(\(rest), 1, 10) = 'answered (' AND \(close) > 11 AND instr(\(event), ' to ') = 0
              AND substr(\(rest), 11, \(close) - 11) NOT IN ('ACCEPTED', 'DECLINED', 'TENTATIVE', 'DELEGATED');
            """
    }()

    private static let proposer = "coalesce(nullif(organizer, ''), 'someone') || ' proposes a new time for '"

    static let step = """
        ALTER TABLE invitations ADD COLUMN title_kind TEXT NOT NULL DEFAULT 'event'
            CHECK (title_kind IN ('event', 'reply', 'counter', 'legacy'));
        ALTER TABLE invitations ADD COLUMN partstat TEXT;
        ALTER TABLE invitations ADD COLUMN delegated_to TEXT;
        UPDATE invitations SET title_kind = 'legacy' WHERE kind IN ('reply', 'counter');
        \(verbs.map { verb($0.0, $0.1) }.joined(separator: "\n"))
        \(answered)
        UPDATE invitations SET title_kind = 'counter', title = substr(title, length(\(proposer)) + 1)
        WHERE kind = 'counter' AND substr(title, 1, length(\(proposer))) = \(proposer);
        """
}
