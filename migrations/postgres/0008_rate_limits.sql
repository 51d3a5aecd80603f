-- Request counters shared by every API process on one database: one fixed 60-second window per
-- team and endpoint, opened by the first request after the previous window closed.
CREATE TABLE rate_windows (
    team_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    opened_at BIGINT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (team_id, endpoint)
);
