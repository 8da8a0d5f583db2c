/// The schema step of issue 43 ("known, narrowly"): `known_senders` gains the answer that
/// made each address known and the invitation's title, and loses the rows a decline made.
///
/// Before it, every answer but a comment made the organizer known, a decline too (a held
/// spammer, declined by hand, was auto-accepted next time). A row is dropped when the
/// inbox shows where it came from and that was only declines: no answer accepted or
/// tentative, and at least one declined, to an invitation whose organizer is the address.
/// An answer given to a file (`decline FILE`) leaves no inbox row; then the answers
/// recorded at the row's own `since` (the same clock reading as the answer that made it)
/// tell: a decline there, and no accept or tentative, drops it. A row nothing tells
/// about is kept. (A dismissal, `review`'s `x`, never made anyone known.)
enum KnownMigration {
    /// An invitation `i` whose organizer is the row's address.
    private static let organizedByRow =
        "lower(trim(i.organizer)) IN (known_senders.address, 'mailto:' || known_senders.address)"

    private static func linked(_ answers: String) -> String {
        """
        SELECT 1 FROM responses r JOIN invitations i ON i.id = r.invite_id
        WHERE r.answer IN (\(answers)) AND \(organizedByRow)
        """
    }

    private static func atSince(_ answers: String) -> String {
        """
        SELECT 1 FROM responses r
        WHERE r.answered_at = known_senders.since AND r.answer IN (\(answers))
          AND r.invite_id NOT IN (SELECT id FROM invitations)
        """
    }

    private static func latest(_ column: String) -> String {
        """
        SELECT r.\(column) FROM responses r JOIN invitations i ON i.id = r.invite_id
        WHERE r.answer IN ('accepted', 'tentative') AND \(organizedByRow)
        ORDER BY r.answered_at DESC, r.id DESC LIMIT 1
        """
    }

    static let step = """
        ALTER TABLE known_senders ADD COLUMN answer TEXT;
        ALTER TABLE known_senders ADD COLUMN title TEXT;
        DELETE FROM known_senders
        WHERE NOT EXISTS (\(linked("'accepted', 'tentative'")))
          AND (EXISTS (\(linked("'declined'")))
               OR (EXISTS (\(atSince("'declined'"))) AND NOT EXISTS (\(atSince("'accepted', 'tentative'")))));
        UPDATE known_senders SET answer = (\(latest("answer"))), title = (\(latest("title")));
        """
}
