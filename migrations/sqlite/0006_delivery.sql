-- The delivery outbox. A signal accepted with interested parties is committed together with its
-- event, one delivery row per webhook and one alert item per monitor, so nothing accepted is lost.

-- What a delivery sends: the event's `data`, rendered once when the signal is accepted.
CREATE TABLE events (
    id TEXT PRIMARY KEY,
    event_type TEXT NOT NULL,
    signal_id TEXT,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- One event to one webhook. `pending` until it succeeds (`done`) or runs out of attempts
-- (`failed`). A worker owns a row while `lease_until` lies ahead.
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id),
    team_id TEXT NOT NULL REFERENCES teams (id),
    monitor_id TEXT,
    event_id TEXT NOT NULL REFERENCES events (id),
    event_type TEXT NOT NULL,
    status TEXT NOT NULL,
    free BOOLEAN NOT NULL DEFAULT FALSE,
    max_attempts BIGINT NOT NULL,
    attempt_count BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_until BIGINT,
    lease_owner TEXT,
    response_status BIGINT,
    response_body TEXT,
    retry_of TEXT,
    delivered_at BIGINT,
    failed_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, created_at, id);
CREATE INDEX deliveries_event ON deliveries (event_id);

-- Every attempt of a delivery, answered or not.
CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL,
    attempt BIGINT NOT NULL,
    attempted_at BIGINT NOT NULL,
    response_status BIGINT,
    duration_ms BIGINT NOT NULL,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
);

-- The credit a successful delivery costs, at most one row (one charge) per delivery.
CREATE TABLE delivery_charges (
    delivery_id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    charged_at BIGINT NOT NULL
);

-- Signals waiting for a monitor's next e-mail digest.
CREATE TABLE alert_items (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL,
    team_id TEXT NOT NULL,
    event_id TEXT NOT NULL REFERENCES events (id),
    created_at BIGINT NOT NULL,
    sent_at BIGINT
);
CREATE INDEX alert_items_pending ON alert_items (monitor_id, created_at) WHERE sent_at IS NULL;

ALTER TABLE monitors ADD COLUMN last_email_at BIGINT;

