-- List counts kept across restarts: every count a list computes is saved here with the data
-- version it was computed at, so that a restarted process answers it again without counting
-- (while the data is unchanged) and recomputes, in the background at start, the counts the data
-- has moved past. `query_key` is the SHA-256 (hex) of the query and its parameters;
-- `query_sql` and `query_binds` (a JSON array) are what recomputing it runs.
CREATE TABLE list_counts (
    query_key TEXT PRIMARY KEY,
    query_sql TEXT NOT NULL,
    query_binds TEXT NOT NULL,
    data_version BIGINT NOT NULL,
    total BIGINT NOT NULL,
    computed_at BIGINT NOT NULL
);

CREATE INDEX list_counts_computed ON list_counts (computed_at);
