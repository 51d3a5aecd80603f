-- CSV enrichment jobs (DESIGN.md flow 6). A job is accepted with all its rows in one transaction,
-- so an accepted job is never lost. A worker owns a job while `lease_until` lies ahead and renews
-- the lease as it records each chunk of rows; a crashed worker's job is taken up again when its
-- lease runs out, and only its rows without a result are processed again.
-- Jobs are retrievable for 30 days after `created_at`; after that their rows may be purged and
-- the job answers 410.

CREATE TABLE enrichment_jobs (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams (id),
    -- pending, running, completed or failed
    status TEXT NOT NULL,
    file_name TEXT NOT NULL,
    -- detectedMapping as JSON, and the input column names in first-seen order (JSON array)
    mapping TEXT NOT NULL,
    columns TEXT NOT NULL,
    total BIGINT NOT NULL,
    processed BIGINT NOT NULL DEFAULT 0,
    matched BIGINT NOT NULL DEFAULT 0,
    with_funding BIGINT NOT NULL DEFAULT 0,
    with_acquisition BIGINT NOT NULL DEFAULT 0,
    with_hiring BIGINT NOT NULL DEFAULT 0,
    with_job_change BIGINT NOT NULL DEFAULT 0,
    attempts BIGINT NOT NULL DEFAULT 0,
    error_code TEXT,
    error_message TEXT,
    lease_until BIGINT,
    lease_owner TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    completed_at BIGINT
);
CREATE INDEX enrichment_jobs_team ON enrichment_jobs (team_id, created_at);
CREATE INDEX enrichment_jobs_open ON enrichment_jobs (created_at)
    WHERE status IN ('pending', 'running');

-- One row per company sent: the input as sent (JSON object), its identifiers as read by the
-- mapping, and the result once processed (`matched` stays NULL until then). `signals` holds the
-- ids of the company's newest signals of each type, so results do not drift after completion.
CREATE TABLE enrichment_rows (
    job_id TEXT NOT NULL REFERENCES enrichment_jobs (id) ON DELETE CASCADE,
    row_index BIGINT NOT NULL,
    input TEXT NOT NULL,
    company_name TEXT,
    website_url TEXT,
    linkedin_url TEXT,
    matched BOOLEAN,
    company_id TEXT,
    matched_by TEXT,
    signals TEXT,
    PRIMARY KEY (job_id, row_index)
);

-- Exact (case-insensitive) company name lookups, before any typo-tolerant matching.
CREATE INDEX companies_lower_name ON companies (lower(name));
