-- Signals of all four kinds in one table: indexed columns for the list filters, and the
-- kind-specific fields of the record as JSON (payload) for the answer.

CREATE TABLE signals (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id),
    other_company_id TEXT REFERENCES companies (id),
    occurred_at BIGINT NOT NULL,
    discovered_at BIGINT NOT NULL,
    round_type TEXT,
    round_flavor TEXT,
    amount BIGINT,
    currency TEXT,
    verification_status TEXT,
    country TEXT,
    region TEXT,
    city TEXT,
    source TEXT,
    applicants BIGINT,
    sort_text TEXT,
    title TEXT,
    person_key TEXT,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX signals_kind_occurred ON signals (kind, occurred_at);
CREATE INDEX signals_kind_discovered ON signals (kind, discovered_at);
CREATE INDEX signals_company ON signals (company_id, kind, occurred_at);
CREATE INDEX signals_other_company ON signals (other_company_id, kind, occurred_at);
CREATE INDEX signals_kind_amount ON signals (kind, amount);
CREATE INDEX signals_person ON signals (person_key);

-- Multi-valued facets of a signal: position:, department:, seniority:, keyword:, investor: tags.
CREATE TABLE signal_tags (
    signal_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    PRIMARY KEY (signal_id, tag)
);
CREATE INDEX signal_tags_tag ON signal_tags (tag);
