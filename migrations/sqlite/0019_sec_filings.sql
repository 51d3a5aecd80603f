-- SEC Form D filings the sec-form-d collector has taken: one row per accession number, claimed
-- before the filing is fetched, so no filing is read twice by two workers or after a restart.
-- `offering` is the accession number of the offering's first filing and `signal_id` the funding
-- signal of that offering: an amendment updates the signal its offering already has.
CREATE TABLE sec_filings (
    accession TEXT PRIMARY KEY,
    offering TEXT NOT NULL,
    signal_id TEXT,
    outcome TEXT NOT NULL,
    error TEXT,
    attempts BIGINT NOT NULL DEFAULT 0,
    lease_until BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX sec_filings_offering ON sec_filings (offering);

-- One pass of a source-wide collector at a time across every worker process: the pass holds the
-- collector's row until `lease_until` (a crashed worker's pass is free again after it).
CREATE TABLE collector_leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until BIGINT NOT NULL
);
