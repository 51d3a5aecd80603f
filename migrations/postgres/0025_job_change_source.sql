-- The job-change list's `source` filter (linkedin, press_release, other; only job changes have
-- one): the rows of one source in list order, and their count off the index alone. Without it a
-- count read every job change's row, where the source sits beside the payload: seconds at scale l.
CREATE INDEX signals_kind_source ON signals (kind, source, occurred_at, id) WHERE source IS NOT NULL;
