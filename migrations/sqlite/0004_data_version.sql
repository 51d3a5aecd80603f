-- A counter bumped by every transaction that changes list data (companies, people, signals), so
-- list answers can be cached exactly: a cached count is valid while the counter is unchanged.
CREATE TABLE data_version (
    id BIGINT PRIMARY KEY,
    version BIGINT NOT NULL
);
INSERT INTO data_version (id, version) VALUES (1, 0);
