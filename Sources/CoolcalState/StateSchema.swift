import Foundation

/// The state's tables, as the list of steps that built them; `StateStore` runs the
/// missing ones when it opens a database.
package enum StateSchema {
    /// Schema steps; `PRAGMA user_version` counts how many have run. Append only:
    /// a released step never changes, a new one goes at the end.
    package static let steps: [String] = [
        """
        CREATE TABLE invitations (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL,
            start TEXT NOT NULL,
            "end" TEXT NOT NULL,
            all_day INTEGER NOT NULL,
            payload TEXT NOT NULL,
            received_at REAL NOT NULL,
            read INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE responses (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            invite_id TEXT NOT NULL,
            answer TEXT NOT NULL CHECK (answer IN ('accepted', 'declined', 'comment')),
            comment TEXT,
            answered_at REAL NOT NULL,
            start TEXT NOT NULL,
            "end" TEXT NOT NULL,
            all_day INTEGER NOT NULL,
            title TEXT NOT NULL,
            delivered_at REAL
        );
        CREATE INDEX responses_by_invite ON responses (invite_id, answer);
        CREATE TABLE badge (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            count INTEGER NOT NULL CHECK (count >= 0)
        );
        INSERT INTO badge (id, count) VALUES (1, 0);
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            idempotency_key TEXT NOT NULL UNIQUE REFERENCES responses (key),
            method TEXT NOT NULL CHECK (method IN ('accept', 'decline', 'comment')),
            invite_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed'))
        );
        """,
        // Invitations that arrived by e-mail keep who sent them; Maildir spools remember
        // what merge has processed (by Message-ID or content hash) per real path.
        """
        ALTER TABLE invitations ADD COLUMN mail_from TEXT;
        ALTER TABLE invitations ADD COLUMN mail_subject TEXT;
        ALTER TABLE invitations ADD COLUMN mail_message_id TEXT;
        CREATE TABLE maildir_messages (
            maildir TEXT NOT NULL,
            key TEXT NOT NULL,
            outcome TEXT NOT NULL,
            invite_id TEXT,
            processed_at REAL NOT NULL,
            PRIMARY KEY (maildir, key)
        );
        """,
        // Answers by mail (issue 16): the outbox gains a channel and the `reply` method
        // (a whole iMIP message in `body`); `mail_replies` remembers which version of an
        // invitation was answered by mail, so each answer is mailed once.
        """
        CREATE TABLE outbox_with_channel (
            id INTEGER PRIMARY KEY,
            idempotency_key TEXT NOT NULL UNIQUE,
            channel TEXT NOT NULL DEFAULT 'server' CHECK (channel IN ('server', 'mail')),
            method TEXT NOT NULL CHECK (method IN ('accept', 'decline', 'comment', 'reply')),
            invite_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed')),
            CHECK ((channel = 'mail') = (method = 'reply'))
        );
        INSERT INTO outbox_with_channel (id, idempotency_key, method, invite_id, body, created_at, attempts, last_error, state)
            SELECT id, idempotency_key, method, invite_id, body, created_at, attempts, last_error, state FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_with_channel RENAME TO outbox;
        CREATE TABLE mail_replies (
            version TEXT PRIMARY KEY NOT NULL,
            outbox_key TEXT NOT NULL UNIQUE,
            response_key TEXT REFERENCES responses (key),
            invite_id TEXT NOT NULL,
            queued_at REAL NOT NULL,
            sent_at REAL
        );
        """,
        // Changing your mind (issue 17): answers and outbox rows gain `tentative`
        // (tables rebuilt for their CHECKs; `mail_replies` follows `responses` so its
        // reference is carried over by the rename); `written_events` remembers which
        // calendars coolcal wrote an accepted invitation into, and a hash of the block.
        """
        CREATE TABLE responses_v4 (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            invite_id TEXT NOT NULL,
            answer TEXT NOT NULL CHECK (answer IN ('accepted', 'declined', 'tentative', 'comment')),
            comment TEXT,
            answered_at REAL NOT NULL,
            start TEXT NOT NULL,
            "end" TEXT NOT NULL,
            all_day INTEGER NOT NULL,
            title TEXT NOT NULL,
            delivered_at REAL
        );
        INSERT INTO responses_v4 (id, key, invite_id, answer, comment, answered_at, start, "end", all_day, title, delivered_at)
            SELECT id, key, invite_id, answer, comment, answered_at, start, "end", all_day, title, delivered_at FROM responses;
        CREATE TABLE mail_replies_v4 (
            version TEXT PRIMARY KEY NOT NULL,
            outbox_key TEXT NOT NULL UNIQUE,
            response_key TEXT REFERENCES responses_v4 (key),
            invite_id TEXT NOT NULL,
            queued_at REAL NOT NULL,
            sent_at REAL
        );
        INSERT INTO mail_replies_v4 (version, outbox_key, response_key, invite_id, queued_at, sent_at)
            SELECT version, outbox_key, response_key, invite_id, queued_at, sent_at FROM mail_replies;
        DROP TABLE mail_replies;
        DROP TABLE responses;
        ALTER TABLE responses_v4 RENAME TO responses;
        ALTER TABLE mail_replies_v4 RENAME TO mail_replies;
        CREATE INDEX responses_by_invite ON responses (invite_id, answer);
        CREATE TABLE outbox_v4 (
            id INTEGER PRIMARY KEY,
            idempotency_key TEXT NOT NULL UNIQUE,
            channel TEXT NOT NULL DEFAULT 'server' CHECK (channel IN ('server', 'mail')),
            method TEXT NOT NULL CHECK (method IN ('accept', 'decline', 'tentative', 'comment', 'reply')),
            invite_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'failed')),
            CHECK ((channel = 'mail') = (method = 'reply'))
        );
        INSERT INTO outbox_v4 (id, idempotency_key, channel, method, invite_id, body, created_at, attempts, last_error, state)
            SELECT id, idempotency_key, channel, method, invite_id, body, created_at, attempts, last_error, state FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_v4 RENAME TO outbox;
        CREATE TABLE written_events (
            invite_id TEXT NOT NULL,
            calendar TEXT NOT NULL,
            uid TEXT NOT NULL,
            hash TEXT NOT NULL,
            answer TEXT NOT NULL CHECK (answer IN ('accepted', 'tentative')),
            written_at REAL NOT NULL,
            PRIMARY KEY (invite_id, calendar)
        );
        """,
        """
        ALTER TABLE invitations ADD COLUMN held TEXT;
        ALTER TABLE invitations ADD COLUMN kind TEXT NOT NULL DEFAULT 'invitation';
        ALTER TABLE invitations ADD COLUMN organizer TEXT;
        CREATE TABLE known_senders (
            address TEXT PRIMARY KEY NOT NULL,
            since REAL NOT NULL
        );
        """,
        """
        CREATE TABLE tombstones (
            uid TEXT PRIMARY KEY NOT NULL,
            organizer TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            stamp INTEGER NOT NULL,
            cancelled_at REAL NOT NULL
        );
        """,
        """
        CREATE TABLE reply_versions (
            uid TEXT NOT NULL,
            attendee TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            stamp INTEGER NOT NULL,
            PRIMARY KEY (uid, attendee)
        );
        """,
        // Unattended delivery (issue 29): a mail reply is marked `sending` before the
        // sendmail runs (so a crash is seen and the same message sent again), and a
        // temporary failure is retried after `next_attempt_at`, for 72 hours from
        // `retrying_since`.
        """
        CREATE TABLE outbox_v8 (
            id INTEGER PRIMARY KEY,
            idempotency_key TEXT NOT NULL UNIQUE,
            channel TEXT NOT NULL DEFAULT 'server' CHECK (channel IN ('server', 'mail')),
            method TEXT NOT NULL CHECK (method IN ('accept', 'decline', 'tentative', 'comment', 'reply')),
            invite_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'failed')),
            next_attempt_at REAL,
            retrying_since REAL,
            CHECK ((channel = 'mail') = (method = 'reply'))
        );
        INSERT INTO outbox_v8 (id, idempotency_key, channel, method, invite_id, body, created_at, attempts, last_error, state)
            SELECT id, idempotency_key, channel, method, invite_id, body, created_at, attempts, last_error, state FROM outbox;
        DROP TABLE outbox;
        ALTER TABLE outbox_v8 RENAME TO outbox;
        """,
        // A spool that costs nothing when nothing arrived (issue 30): each remembered
        // Maildir message keeps the file name (without its flags) it was found under, so
        // that messages gone from the Maildir are forgotten.
        """
        ALTER TABLE maildir_messages ADD COLUMN name TEXT;
        CREATE INDEX maildir_messages_by_name ON maildir_messages (maildir, name);
        """,
        // A remembered Maildir message is forgotten only after it has been missing for a
        // day (issue 30, settled): a message moved from `new/` to `cur/` between two
        // directory reads is not gone. Each row: since when a name has been missing.
        """
        CREATE TABLE maildir_missing (
            maildir TEXT NOT NULL,
            name TEXT NOT NULL,
            since REAL NOT NULL,
            PRIMARY KEY (maildir, name)
        );
        """,
        // `review`'s `x` (issue 31): an invitation dismissed without an answer.
        """
        ALTER TABLE invitations ADD COLUMN dismissed INTEGER NOT NULL DEFAULT 0;
        """,
        // Known, narrowly (issue 43): only an answer accepted or tentative makes its
        // organizer known. Each row keeps that answer and the invitation's title (for
        // `coolcal known`); rows that came only from a decline are dropped (`KnownMigration`).
        KnownMigration.step,
        // An organizer's update that moved an accepted event where I am busy (issue 46):
        // since when its entry waits for my answer again (cleared by the next answer).
        """
        ALTER TABLE invitations ADD COLUMN reopened_at REAL;
        """,
        // Which properties are the user's (issue 44): per UID and RECURRENCE-ID, the
        // hashes of the lines (and VALARM blocks) the organizer last sent, as coolcal
        // wrote them; a stored line not among them is the user's (`OrganizerLines`).
        """
        CREATE TABLE organizer_lines (
            uid TEXT NOT NULL,
            recurrence TEXT NOT NULL,
            hashes TEXT NOT NULL,
            written_at REAL NOT NULL,
            PRIMARY KEY (uid, recurrence)
        );
        """,
        // Invitations found in the calendars (issue 49): the inbox entry keeps the calendar
        // it was found in; `calendar_invitations` remembers each pending version decided
        // (UID, SEQUENCE, RECURRENCE-IDs and a hash of the times), so a run does not repeat itself.
        """
        ALTER TABLE invitations ADD COLUMN found_in TEXT;
        CREATE TABLE calendar_invitations (
            key TEXT PRIMARY KEY NOT NULL,
            invite_id TEXT NOT NULL,
            calendar TEXT NOT NULL,
            decided_at REAL NOT NULL
        );
        """,
        // Inbox titles as data (issue 47): a reply's or counter-proposal's entry keeps the
        // event's title and its fields, not English words; old rows taken apart, or kept
        // verbatim as `legacy` (`TitleMigration`). An older coolcal refuses the state then.
        TitleMigration.step,
    ]
}
