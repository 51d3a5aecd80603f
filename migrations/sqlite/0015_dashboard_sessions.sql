-- The team dashboard: one-use sign-in links, browser sessions, and what the keys page shows.
-- Tokens and session ids are stored only as SHA-256 hashes.

CREATE TABLE sign_in_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX sign_in_tokens_user ON sign_in_tokens (user_id);

CREATE TABLE dashboard_sessions (
    session_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    csrf_token TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

-- The first characters of a key, shown so a member can tell keys apart; NULL for keys issued
-- before this column existed.
ALTER TABLE api_keys ADD COLUMN key_prefix TEXT;
-- When the key last authenticated a request, to within an hour.
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;
CREATE INDEX api_keys_user ON api_keys (user_id);

-- Credits charged for list requests and enrichment jobs, per team and UTC day (epoch ms of its
-- midnight), for the usage charts. Delivery charges are counted from the deliveries.
CREATE TABLE credit_usage_daily (
    team_id TEXT NOT NULL,
    day BIGINT NOT NULL,
    credits BIGINT NOT NULL,
    PRIMARY KEY (team_id, day)
);
