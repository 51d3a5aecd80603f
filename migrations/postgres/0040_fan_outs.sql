-- An accepting transaction no longer writes one delivery row per webhook that hears of each new
-- signal: it writes one row here holding all of them, and a worker turns it into delivery rows
-- (ingest::outbox, delivery::worker). Ten delivery rows an event were about half of what
-- accepting it cost PostgreSQL; one row a transaction is a small part of it. `id` orders the
-- rows (oldest first), `deliveries` is how many the row holds (read by the metrics without
-- opening `body`), `body` the deliveries as JSON.
CREATE TABLE fan_outs (
    id BIGSERIAL PRIMARY KEY,
    created_at BIGINT NOT NULL,
    deliveries BIGINT NOT NULL,
    body TEXT NOT NULL
);
