-- The twin of SQLite's 0018. Research that looks websites up, and the job-board collectors.
--
-- A pending target remembers why its last look-up failed and when the next one is due (the
-- sweep backs off). A company may name its job boards (found on its website or set by the
-- operator); each board carries the collector's state: the validators of its last answer, when it
-- is due again, its failures, and a lease so two workers never poll one board at once. Every
-- posting a board ever showed is remembered once, by (provider, board, posting id), with the
-- signal it became. Each collector keeps the figures of its last pass.

ALTER TABLE targets ADD COLUMN research_error TEXT;
ALTER TABLE targets ADD COLUMN research_attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN research_due_at BIGINT NOT NULL DEFAULT 0;

CREATE TABLE job_boards (
    provider TEXT NOT NULL,
    token TEXT NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id),
    etag TEXT,
    last_modified TEXT,
    due_at BIGINT NOT NULL DEFAULT 0,
    failures BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    last_checked_at BIGINT,
    lease_until BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (provider, token)
);
CREATE INDEX job_boards_company ON job_boards (company_id);

CREATE TABLE board_postings (
    provider TEXT NOT NULL,
    board TEXT NOT NULL,
    posting_id TEXT NOT NULL,
    signal_id TEXT NOT NULL,
    first_seen_at BIGINT NOT NULL,
    gone_at BIGINT,
    PRIMARY KEY (provider, board, posting_id)
);

CREATE TABLE collector_runs (
    name TEXT PRIMARY KEY,
    last_run_at BIGINT,
    last_error TEXT,
    sources_checked BIGINT NOT NULL DEFAULT 0,
    items_seen BIGINT NOT NULL DEFAULT 0,
    signals_created BIGINT NOT NULL DEFAULT 0
);
