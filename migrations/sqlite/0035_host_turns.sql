-- The next moment a request to each source host may start, shared by every process of the
-- service: each collector reserves its request's start here (epoch milliseconds), so the
-- politeness spacing per host holds across processes, not only within one.
CREATE TABLE host_turns (
    host TEXT PRIMARY KEY,
    next_at BIGINT NOT NULL
);
