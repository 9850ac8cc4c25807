-- Ticket store schema shared by SQLite and PostgreSQL (portable subset: TEXT/BIGINT/INTEGER, partial
-- unique index, ON CONFLICT).  Timestamps are fixed-width UTC ISO text ("2025-01-31T08:00:00.000000Z")
-- so they sort lexicographically on both engines; JSON is stored as TEXT.  Statements are separated by
-- ";" at end of line (the loader splits on that).  Dialect-specific extras (append-only triggers on
-- ticket_events) live next to each backend.

CREATE TABLE IF NOT EXISTS ticket_counters (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);

INSERT INTO ticket_counters (name, value) VALUES ('ticket', 0) ON CONFLICT (name) DO NOTHING;

CREATE TABLE IF NOT EXISTS tickets (
    id                     TEXT PRIMARY KEY,
    num                    BIGINT NOT NULL UNIQUE,
    thread_key             TEXT NOT NULL,
    thread_json            TEXT NOT NULL,
    requester_principal_id TEXT NOT NULL,
    requester_json         TEXT NOT NULL,
    question_masked        TEXT NOT NULL,
    facts_json             TEXT NOT NULL,
    evidence_json          TEXT NOT NULL,
    gap                    TEXT NOT NULL,
    reason                 TEXT NOT NULL CHECK (reason IN ('no_source', 'low_confidence', 'out_of_scope',
                                                           'advice', 'protected_determination', 'user_request',
                                                           'answer_failed')),
    status                 TEXT NOT NULL CHECK (status IN ('open', 'claimed', 'needs_info', 'answered',
                                                           'closed', 'rejected')),
    assignee               TEXT,
    topic                  TEXT,
    answer                 TEXT,
    answer_by              TEXT,
    answer_sources_json    TEXT NOT NULL,
    created_at             TEXT NOT NULL,
    updated_at             TEXT NOT NULL,
    status_since           TEXT NOT NULL,
    version                BIGINT NOT NULL
);

-- At most one ticket per conversation is being worked on: makes open_ticket idempotent even under races.
CREATE UNIQUE INDEX IF NOT EXISTS tickets_one_active_per_thread
    ON tickets (thread_key) WHERE status IN ('open', 'claimed', 'needs_info');

CREATE INDEX IF NOT EXISTS tickets_by_thread ON tickets (thread_key, num);

CREATE INDEX IF NOT EXISTS tickets_by_status ON tickets (status, num);

CREATE INDEX IF NOT EXISTS tickets_by_requester ON tickets (requester_principal_id, num);

-- Append-only history (UPDATE/DELETE are refused by backend triggers).
CREATE TABLE IF NOT EXISTS ticket_events (
    ticket_id TEXT NOT NULL REFERENCES tickets (id),
    seq       BIGINT NOT NULL,
    kind      TEXT NOT NULL,
    actor     TEXT NOT NULL,
    at        TEXT NOT NULL,
    data_json TEXT NOT NULL,
    PRIMARY KEY (ticket_id, seq)
);

CREATE INDEX IF NOT EXISTS ticket_events_by_kind ON ticket_events (kind, ticket_id);

-- Transactional outbox: written in the same transaction as the ticket change.  Notices (cards to one
-- person, e.g. about an FAQ a corpus change affected) share it; ticket_id is NULL when one is about no
-- ticket (older databases are migrated by tickets.sql.migrate_outbox).
CREATE TABLE IF NOT EXISTS ticket_outbox (
    msg_key         TEXT PRIMARY KEY,
    ticket_id       TEXT REFERENCES tickets (id),
    event_seq       BIGINT NOT NULL,
    channel         TEXT NOT NULL,
    kind            TEXT NOT NULL,
    payload_json    TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'uncertain', 'dead')),
    attempts        INTEGER NOT NULL,
    next_attempt_at TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    last_error      TEXT,
    external_ref    TEXT,
    delivered_at    TEXT,
    redriven_at     TEXT
);

CREATE INDEX IF NOT EXISTS ticket_outbox_due ON ticket_outbox (status, next_attempt_at);

CREATE INDEX IF NOT EXISTS ticket_outbox_order ON ticket_outbox (ticket_id, channel, event_seq);

-- Users' verdicts on answers (Slack feedback_buttons, Teams card actions): one row per answer and user,
-- the latest click wins.  comment_masked is PII-masked by the bot before it gets here.
CREATE TABLE IF NOT EXISTS answer_feedback (
    answer_ref      TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    platform        TEXT NOT NULL,
    tenant          TEXT NOT NULL,
    corpus_version  TEXT NOT NULL,
    answer_status   TEXT NOT NULL,
    confidence_band TEXT NOT NULL,
    verdict         TEXT NOT NULL CHECK (verdict IN ('helpful', 'not_helpful')),
    comment_masked  TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (answer_ref, user_id)
);

CREATE INDEX IF NOT EXISTS answer_feedback_by_time ON answer_feedback (updated_at, answer_ref);
